import type { Em } from '@intake/shared/db';
import { SiteSchema, type Site } from '@intake/shared/entities';
import { generateControlCode } from '@intake/shared/site-token';
import type { CreateSiteInput } from './site.input.js';

/** A new site, not yet written (the dry run stops here: setup/validate-setup.ts). */
export function buildSite(em: Em, input: CreateSiteInput): Site {
  return em.create(SiteSchema, { domain: null, ...input, controlCode: generateControlCode() });
}

/** A new site with a fresh control code (its tokens are derived from it). */
export async function createSite(em: Em, input: CreateSiteInput): Promise<Site> {
  const site = buildSite(em, input);
  await em.flush();
  return site;
}
