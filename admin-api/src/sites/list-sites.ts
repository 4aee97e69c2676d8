import type { Em } from '@intake/shared/db';
import { SiteSchema, type Site } from '@intake/shared/entities';

/** Sites that are not deleted, oldest first. */
export function listSites(em: Em): Promise<Site[]> {
  return em.find(SiteSchema, { deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
