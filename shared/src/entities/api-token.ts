import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { createdAtProperty, idProperty } from './timestamps.js';

/** How much of its member's power a token carries (docs/teams.md, "API tokens"). */
export const API_TOKEN_LEVELS = ['read', 'manage', 'admin'] as const;
export type ApiTokenLevel = (typeof API_TOKEN_LEVELS)[number];

// A long-lived admin API token for integrators. Only the sha256 of the secret is stored; the
// secret is shown once, at creation. It acts for its member, never beyond its level, its sites
// (`siteIds`, null for every site the member may see) and its end (`expiresAt`, null: never).
// The site list is a column, not a table with cascading rows: a list must never empty itself into
// "every site" (sites are soft-deleted, and a gone site's id simply matches nothing).
export const ApiTokenSchema = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: idProperty(),
    name: p.string().length(200),
    tokenHash: p.string().length(64).unique(),
    createdBy: () => p.manyToOne(AdminUserSchema).nullable().deleteRule('set null'),
    level: p.enum(API_TOKEN_LEVELS).columnType('varchar(16)').default('admin'),
    siteIds: p.json<string[]>().nullable(),
    expiresAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

export type ApiToken = InferEntity<typeof ApiTokenSchema>;
