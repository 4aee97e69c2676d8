// Finders shared by commands and queries. "Live" means not soft-deleted.
import type { Em } from '@intake/shared/db';
import { FormSchema, SiteSchema, type Form, type Site } from '@intake/shared/entities';
import { notFound } from '../errors.js';

export function findLiveSite(em: Em, id: string): Promise<Site | null> {
  return em.findOne(SiteSchema, { id, deletedAt: null });
}

export async function requireLiveSite(em: Em, id: string): Promise<Site> {
  const site = await findLiveSite(em, id);
  if (site === null) {
    throw notFound('Site');
  }
  return site;
}

export function findLiveForm(em: Em, id: string): Promise<Form | null> {
  return em.findOne(FormSchema, { id, deletedAt: null });
}

export async function requireLiveForm(em: Em, id: string): Promise<Form> {
  const form = await findLiveForm(em, id);
  if (form === null) {
    throw notFound('Form');
  }
  return form;
}

export function liveFormsOf(em: Em, siteId: string): Promise<Form[]> {
  return em.find(FormSchema, { site: siteId, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
