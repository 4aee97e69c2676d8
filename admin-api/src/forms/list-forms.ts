import type { Em } from '@intake/shared/db';
import type { Form } from '@intake/shared/entities';
import { liveFormsOf, requireLiveSite } from '../lib/live-finders.js';

/** Forms of a live site (NOT_FOUND otherwise) that are not deleted, oldest first. */
export async function listForms(em: Em, siteId: string): Promise<Form[]> {
  const site = await requireLiveSite(em, siteId);
  return liveFormsOf(em, site.id);
}
