import { FormSchema, SiteSchema, type Form, type Site } from '../entities/index.js';
import type { Services } from '../services.js';
import { generateControlCode, generateFormCode } from '../site-token/index.js';

// Builders for tests: each makes a real row with sensible defaults that a test may override.

export async function makeSite(
  services: Services,
  overrides: Partial<Pick<Site, 'name' | 'domain' | 'deletedAt'>> = {},
): Promise<{ site: Site; token: string }> {
  const em = services.db.em.fork();
  const site = em.create(SiteSchema, {
    name: overrides.name ?? 'Test site',
    domain: overrides.domain ?? 'example.test',
    controlCode: generateControlCode(),
    deletedAt: overrides.deletedAt ?? null,
  });
  await em.flush();
  return { site, token: services.siteTokens.issue(site.id, site.controlCode) };
}

export async function makeForm(
  services: Services,
  site: Site,
  overrides: Partial<Pick<Form, 'name' | 'enabled' | 'allowedMimeTypes' | 'maxFileSize' | 'deletedAt'>> = {},
): Promise<Form> {
  const em = services.db.em.fork();
  const form = em.create(FormSchema, {
    site: em.getReference(SiteSchema, site.id),
    name: overrides.name ?? 'Contact',
    code: generateFormCode(),
    enabled: overrides.enabled ?? true,
    allowedMimeTypes: overrides.allowedMimeTypes ?? null,
    maxFileSize: overrides.maxFileSize ?? null,
    deletedAt: overrides.deletedAt ?? null,
  });
  await em.flush();
  return form;
}
