import type { Em } from '@intake/shared/db';
import { SiteSchema, type Site } from '@intake/shared/entities';
import { generateControlCode } from '@intake/shared/site-token';
import type { CreateSiteInput } from './site.input.js';

/** A new site with a fresh control code (its tokens are derived from it). */
export async function createSite(em: Em, input: CreateSiteInput): Promise<Site> {
  const site = em.create(SiteSchema, { domain: null, ...input, controlCode: generateControlCode() });
  await em.flush();
  return site;
}
