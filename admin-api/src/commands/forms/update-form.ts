import type { Em } from '@intake/shared/db';
import type { Form } from '@intake/shared/entities';
import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from '@intake/shared/lifecycle';
import { z } from 'zod';
import { notifyEmails } from '../../validation/delivery-fields.js';
import { maxFileSize, mimeTypes, name } from '../../validation/fields.js';
import { optionalCount } from '../../validation/spam-fields.js';
import { requireLiveForm } from '../../queries/live-finders.js';
import { applySpamSettings, spamSettingsFields } from '../spam/spam-settings.js';

/** Absent fields stay as they are; null resets a limit to its default. MAX_FILE_SIZE bounds the form's own. */
export function updateFormInput(globalMaxFileSize: number) {
  return z.object({
    name: name.optional(),
    enabled: z.boolean({ error: 'cannot be null' }).optional(),
    allowedMimeTypes: mimeTypes.optional(),
    maxFileSize: maxFileSize(globalMaxFileSize).optional(),
    notifyEmails: notifyEmails.optional(),
    ...spamSettingsFields,
    retentionDays: optionalCount(RETENTION_DAYS_MIN, RETENTION_DAYS_MAX).optional(),
  });
}

export type UpdateFormInput = z.output<ReturnType<typeof updateFormInput>>;

/** Changes a live form (NOT_FOUND otherwise); the input is checked whole first, so a bad field changes nothing. */
export async function updateForm(
  em: Em,
  tokenEncryptionKey: Buffer,
  formId: string,
  input: UpdateFormInput,
): Promise<Form> {
  const form = await requireLiveForm(em, formId);
  applySpamSettings(form, input, tokenEncryptionKey);
  if (input.notifyEmails !== undefined) {
    form.notifyEmails = input.notifyEmails;
  }
  if (input.name !== undefined) {
    form.name = input.name;
  }
  if (input.enabled !== undefined) {
    form.enabled = input.enabled;
  }
  if (input.allowedMimeTypes !== undefined) {
    form.allowedMimeTypes = input.allowedMimeTypes;
  }
  if (input.maxFileSize !== undefined) {
    form.maxFileSize = input.maxFileSize;
  }
  if (input.retentionDays !== undefined) {
    form.retentionDays = input.retentionDays;
  }
  await em.flush();
  return form;
}
