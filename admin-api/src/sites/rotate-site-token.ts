import type { Em } from '@intake/shared/db';
import type { Site } from '@intake/shared/entities';
import { generateControlCode } from '@intake/shared/site-token';
import { requireLiveSite } from '../lib/live-finders.js';

/** A new control code: every earlier token of the site stops working. */
export async function rotateSiteToken(em: Em, siteId: string): Promise<Site> {
  const site = await requireLiveSite(em, siteId);
  site.controlCode = generateControlCode();
  await em.flush();
  return site;
}
