// The site and form of each intake request, and the form's enabled webhook ids, read from the
// database once and then from memory: without it every submission paid three queries besides its
// insert, and database round trips were the largest cost of a JSON submission. Correctness comes
// first: entries are used only while the site change feed is live (LISTEN on PostgreSQL, in-process
// on PGlite), every committed change to a site, its forms or their webhooks drops that site's entries
// on every gateway process, a lost feed empties the cache and bypasses it until the feed is back, and
// entries expire after MAX_AGE_MS whatever happens. Figures and details: docs/performance.md ("What
// the profile showed, and what changed", items 1 and 5).
import { watchSiteChanges, type Em } from '@intake/shared/db';
import { enabledWebhookIds } from '@intake/shared/delivery';
import { FormSchema, SiteSchema, type Form, type Site } from '@intake/shared/entities';
import type { Services } from '@intake/shared/services';
import type { SiteTokenCodec } from '@intake/shared/site-token';
import { ReferenceKind, type EntityMetadata } from '@mikro-orm/core';
import { LRUCache } from 'lru-cache';
import { ACCEPTING_FORM } from '../submission/acceptance.js';
import { formShapeOf, type FormShape } from '../submission/form-shape.js';
import { createSiteScopedCache, type SiteScopedCacheOptions } from './site-scoped-cache.js';
import { memoizeTokenDecoding } from './token-memo.js';

const DEFAULTS: SiteScopedCacheOptions = { maxEntries: 10_000, maxAgeMs: 30_000 };

/** A form with the ids of its enabled webhooks, the deliveries a new submission gets. */
export interface CachedForm {
  form: Form;
  webhookIds: readonly string[];
  /** The form's declared shape, compiled once with the entry (null: none). */
  shape: FormShape | null;
}

export interface SiteCache {
  /** The site-token codec, remembering what the tokens it saw decode to. */
  tokens: SiteTokenCodec;
  /** The site of this id, deleted or not (the token check tells them apart), or null. */
  site(em: () => Em, id: string): Promise<Site | null>;
  /** The form of this code that belongs to `site` and accepts submissions (acceptance.ts), or null. */
  form(em: () => Em, site: Site, code: string): Promise<CachedForm | null>;
  /** A browser post names no site: the form of this code with its site, neither deleted, or null. */
  formByCodeAlone(em: () => Em, code: string): Promise<(CachedForm & { site: Site }) | null>;
  /** Whether cached answers are being used (the change feed is live). */
  readonly caching: boolean;
  /** Settles once the change feed's first attempt to listen has (a few seconds at most). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A detached, frozen copy of a row's scalar columns: shared by concurrent requests, so nobody may
 * change it, and not managed by any EntityManager — code that needs the entity in a unit of work
 * takes `em.getReference(Schema, copy.id)`, as the submission command does.
 */
function frozenScalars(meta: EntityMetadata, entity: object): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const prop of meta.props) {
    if (prop.kind === ReferenceKind.SCALAR) {
      const value = (entity as Record<string, unknown>)[prop.name];
      copy[prop.name] = Array.isArray(value) ? Object.freeze([...(value as unknown[])]) : value;
    }
  }
  return copy;
}

export function createSiteCache(
  services: Pick<Services, 'db' | 'logger' | 'siteTokens'>,
  options: Partial<SiteScopedCacheOptions> = {},
): SiteCache {
  const settings = { ...DEFAULTS, ...options };
  const sites = createSiteScopedCache<Site>(settings);
  const forms = createSiteScopedCache<CachedForm>(settings);
  const metadata = services.db.getMetadata();
  // A form's site never changes, so which site a code belongs to may be kept; the entries read
  // through it are the ones above, dropped on every change.
  const siteOfCode = new LRUCache<string, string>({ max: settings.maxEntries });
  const feed = watchSiteChanges(
    services.db,
    {
      onChange(siteId) {
        sites.invalidateSite(siteId);
        forms.invalidateSite(siteId);
      },
      onLive() {
        sites.setLive(true);
        forms.setLive(true);
      },
      onBlind() {
        sites.setLive(false);
        forms.setLive(false);
      },
    },
    { logger: services.logger },
  );

  return {
    tokens: memoizeTokenDecoding(services.siteTokens),
    site(em, id) {
      return sites.get(id, id, async () => {
        const site = await em().findOne(SiteSchema, { id });
        return site && (Object.freeze(frozenScalars(metadata.get(SiteSchema), site)) as unknown as Site);
      });
    },
    form(em, site, code) {
      return forms.get(`${site.id}\n${code}`, site.id, async () => {
        const forked = em();
        // Only a form that accepts submissions (acceptance.ts); any other is answered as absent.
        const form = await forked.findOne(FormSchema, { code, site: site.id, ...ACCEPTING_FORM });
        if (!form) {
          return null;
        }
        const webhookIds = await enabledWebhookIds(forked, form.id);
        const cached = Object.freeze({ ...frozenScalars(metadata.get(FormSchema), form), site }) as unknown as Form;
        return Object.freeze({
          form: cached,
          webhookIds: Object.freeze(webhookIds),
          // Dropped with the entry when the change feed says the form changed, so never stale.
          shape: formShapeOf(cached),
        });
      });
    },
    async formByCodeAlone(em, code) {
      let siteId = siteOfCode.get(code);
      if (siteId === undefined) {
        const row = await em().findOne(FormSchema, { code, deletedAt: null }, { fields: ['site'] });
        if (!row) {
          return null;
        }
        siteId = row.site.id;
        siteOfCode.set(code, siteId);
      }
      const site = await this.site(em, siteId);
      if (!site || site.deletedAt) {
        return null;
      }
      const found = await this.form(em, site, code);
      return found && { ...found, site };
    },
    get caching() {
      return sites.live && forms.live;
    },
    ready: () => feed.firstAttempt,
    close: () => feed.close(),
  };
}
