import type { Em } from '@intake/shared/db';
import type { Site } from '@intake/shared/entities';
import type { UpdateSiteInput } from './site.input.js';
import { requireLiveSite } from '../lib/live-finders.js';

/** A live site changed in memory, not yet written (the dry run stops here: setup/validate-setup.ts). */
export async function changeSite(em: Em, siteId: string, input: UpdateSiteInput): Promise<Site> {
  const site = await requireLiveSite(em, siteId);
  // The input holds only its declared fields (absent ones are not keys), so this copies those.
  em.assign(site, input, { onlyProperties: true });
  return site;
}

/** Changes a live site (NOT_FOUND otherwise); the input is checked whole first, so a bad field changes nothing. */
export async function updateSite(em: Em, siteId: string, input: UpdateSiteInput): Promise<Site> {
  const site = await changeSite(em, siteId, input);
  await em.flush();
  return site;
}
