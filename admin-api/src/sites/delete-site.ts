import type { Em } from '@intake/shared/db';
import { FormSchema, SiteSchema } from '@intake/shared/entities';

/**
 * Soft-deletes a live site and its forms in one transaction; false when there was no such live
 * site. Submissions are kept.
 */
export function deleteSite(em: Em, siteId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const now = new Date();
    const deleted = await tx.nativeUpdate(
      SiteSchema,
      { id: siteId, deletedAt: null },
      { deletedAt: now, updatedAt: now },
    );
    if (deleted === 0) {
      return false;
    }
    // The gateway refuses the site's tokens already; closing its forms too means no path can
    // reach them even if a check were missed.
    await tx.nativeUpdate(FormSchema, { site: siteId, deletedAt: null }, { deletedAt: now, updatedAt: now });
    return true;
  });
}
