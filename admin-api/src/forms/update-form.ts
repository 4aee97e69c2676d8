import type { Em } from '@intake/shared/db';
import type { Form } from '@intake/shared/entities';
import { toJsonSchema } from '@intake/shared/form-shape';
import type { UpdateFormInput } from './form.input.js';
import { requireLiveForm } from '../lib/live-finders.js';
import { badUserInput } from '../errors.js';
import { applyCaptchaSettings } from './captcha-settings.js';
import { applyConfirmation, withoutConfirmation } from './form-confirmation.js';
import { applyFormLimits, withoutLimits } from './form-limits.js';

/**
 * `form` changed in memory once the whole input holds, not yet written (the dry run stops here:
 * setup/validate-setup.ts); BAD_USER_INPUT naming the field otherwise.
 */
export function changeForm(em: Em, tokenEncryptionKey: Buffer, form: Form, input: UpdateFormInput): void {
  const { captchaProvider, captchaSecret, captchaResponseField, fields, unknownFields, confirmChallengeOff, ...rest } =
    input;
  const settings = withoutConfirmation(withoutLimits(rest));
  // Off lets any script post without work: never by accident, and kept in the audit entry.
  if (settings.browserChallenge === 'off' && form.browserChallenge !== 'off' && confirmChallengeOff !== true) {
    throw badUserInput(
      'input.browserChallenge',
      'OFF lets any script post to the form: confirm it with confirmChallengeOff: true',
    );
  }
  applyFormLimits(form, input, fields);
  applyConfirmation(form, input, fields);
  applyCaptchaSettings(form, { captchaProvider, captchaSecret, captchaResponseField }, tokenEncryptionKey);
  if (fields !== undefined) {
    // Stored as the JSON Schema the gateway compiles (shared/src/form-shape).
    form.fieldsSchema = fields === null ? null : toJsonSchema(fields);
  }
  if (unknownFields !== undefined) {
    form.unknownFields = unknownFields;
  }
  // The input holds only its declared fields (absent ones are not keys), so this copies those.
  em.assign(form, settings, { onlyProperties: true });
}

/** Changes a live form (NOT_FOUND otherwise); the input is checked whole first, so a bad field changes nothing. */
export async function updateForm(
  em: Em,
  tokenEncryptionKey: Buffer,
  formId: string,
  input: UpdateFormInput,
): Promise<Form> {
  const form = await requireLiveForm(em, formId);
  changeForm(em, tokenEncryptionKey, form, input);
  await em.flush();
  return form;
}
