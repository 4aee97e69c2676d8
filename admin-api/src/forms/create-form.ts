import type { Em } from '@intake/shared/db';
import { FormSchema, type Form, type Site } from '@intake/shared/entities';
import { generateFormCode } from '@intake/shared/site-token';
import type { CreateFormInput } from './form.input.js';
import { requireLiveSite } from '../lib/live-finders.js';
import { applyFormLimits, withoutLimits } from './form-limits.js';

/** A new form of `site`, checked and not yet written (the dry run stops here: setup/validate-setup.ts). */
export function buildForm(em: Em, site: Site, input: Omit<CreateFormInput, 'siteId'>): Form {
  const fields = withoutLimits(input);
  const form = em.create(FormSchema, { notifyEmails: null, ...fields, site, code: generateFormCode(), enabled: true });
  // A new form declares no fields yet, so it may have a cap and a schedule but no per-address cap.
  applyFormLimits(form, input);
  return form;
}

/** A new, enabled form of a live site, with a fresh code. */
export async function createForm(em: Em, { siteId, ...input }: CreateFormInput): Promise<Form> {
  const form = buildForm(em, await requireLiveSite(em, siteId), input);
  await em.flush();
  return form;
}
