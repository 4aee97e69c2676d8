import type { Em } from '@intake/shared/db';
import { FormSchema, type Form } from '@intake/shared/entities';
import { generateFormCode } from '@intake/shared/site-token';
import { z } from 'zod';
import { notifyEmails } from '../../validation/delivery-fields.js';
import { id, name } from '../../validation/fields.js';
import { requireLiveSite } from '../../queries/live-finders.js';

export const createFormInput = z.object({ siteId: id, name, notifyEmails: notifyEmails.optional() });

/** A new, enabled form of a live site, with a fresh code. */
export async function createForm(em: Em, input: z.output<typeof createFormInput>): Promise<Form> {
  const site = await requireLiveSite(em, input.siteId);
  const form = em.create(FormSchema, {
    site,
    name: input.name,
    code: generateFormCode(),
    enabled: true,
    notifyEmails: input.notifyEmails ?? null,
  });
  await em.flush();
  return form;
}
