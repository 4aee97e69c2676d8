import type { Em } from '@intake/shared/db';
import { SiteSchema, type Site } from '@intake/shared/entities';
import { generateControlCode } from '@intake/shared/site-token';
import { z } from 'zod';
import { domain, name } from '../../validation/fields.js';

export const createSiteInput = z.object({ name, domain: domain.optional() });

/** A new site with a fresh control code (its tokens are derived from it). */
export async function createSite(em: Em, input: z.output<typeof createSiteInput>): Promise<Site> {
  const site = em.create(SiteSchema, {
    name: input.name,
    domain: input.domain ?? null,
    controlCode: generateControlCode(),
  });
  await em.flush();
  return site;
}
