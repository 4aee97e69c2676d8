import type { Em } from '@intake/shared/db';
import { FormSchema, type Form } from '@intake/shared/entities';
import { generateFormCode } from '@intake/shared/site-token';
import type { CreateFormInput } from './form.input.js';
import { requireLiveSite } from '../lib/live-finders.js';

/** A new, enabled form of a live site, with a fresh code. */
export async function createForm(em: Em, { siteId, ...fields }: CreateFormInput): Promise<Form> {
  const site = await requireLiveSite(em, siteId);
  const form = em.create(FormSchema, { notifyEmails: null, ...fields, site, code: generateFormCode(), enabled: true });
  await em.flush();
  return form;
}
