import type { Em } from '@intake/shared/db';
import { FormSchema, type Form } from '@intake/shared/entities';
import { generateFormCode } from '@intake/shared/site-token';
import type { CreateFormInput } from './form.input.js';
import { requireLiveSite } from '../lib/live-finders.js';
import { applyFormLimits, withoutLimits } from './form-limits.js';

/** A new, enabled form of a live site, with a fresh code. */
export async function createForm(em: Em, { siteId, ...input }: CreateFormInput): Promise<Form> {
  const site = await requireLiveSite(em, siteId);
  const fields = withoutLimits(input);
  const form = em.create(FormSchema, { notifyEmails: null, ...fields, site, code: generateFormCode(), enabled: true });
  // A new form declares no fields yet, so it may have a cap and a schedule but no per-address cap.
  applyFormLimits(form, input);
  await em.flush();
  return form;
}
