import type { Em } from '@intake/shared/db';
import type { Site } from '@intake/shared/entities';
import { z } from 'zod';
import { domain, name } from '../../validation/fields.js';
import { requireLiveSite } from '../../queries/live-finders.js';

/** Absent fields stay as they are; `domain: null` removes the domain. */
export const updateSiteInput = z.object({ name: name.optional(), domain: domain.optional() });

/** Changes a live site (NOT_FOUND otherwise); the input is checked whole first, so a bad field changes nothing. */
export async function updateSite(em: Em, siteId: string, input: z.output<typeof updateSiteInput>): Promise<Site> {
  const site = await requireLiveSite(em, siteId);
  if (input.name !== undefined) {
    site.name = input.name;
  }
  if (input.domain !== undefined) {
    site.domain = input.domain;
  }
  await em.flush();
  return site;
}
