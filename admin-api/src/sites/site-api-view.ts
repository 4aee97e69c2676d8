import type { Em } from '@intake/shared/db';
import type { Form, Site } from '@intake/shared/entities';
import type { Services } from '@intake/shared/services';
import { liveFormsOf } from '../lib/live-finders.js';

export interface SiteApiView {
  site: Site;
  /** The site token site backends send (derived from the control code, not stored). */
  token: string;
  forms: Form[];
}

/** What a site backend needs: the site's token and its live forms. */
export async function siteApiView(em: Em, services: Services, site: Site): Promise<SiteApiView> {
  const forms = await liveFormsOf(em, site.id);
  return { site, token: services.siteTokens.issue(site.id, site.controlCode), forms };
}
