import type { Site } from '@intake/shared/entities';
import type { FormType } from '../forms/form.type.js';
import type { SiteApiViewType, SiteType } from './site.type.js';

export function presentSite(site: Site): SiteType {
  return {
    id: site.id,
    name: site.name,
    domain: site.domain ?? null,
    createdAt: site.createdAt.toISOString(),
    updatedAt: site.updatedAt.toISOString(),
  };
}

export function presentSiteApiView(site: Site, token: string, forms: FormType[]): SiteApiViewType {
  return { siteId: site.id, token, forms };
}
