import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { createdAtProperty, idProperty } from './timestamps.js';

// A long-lived admin API token for integrators. Only the sha256 of the secret is stored; the
// secret is shown once, at creation.
export const ApiTokenSchema = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: idProperty(),
    name: p.string().length(200),
    tokenHash: p.string().length(64).unique(),
    createdBy: () => p.manyToOne(AdminUserSchema).nullable().deleteRule('set null'),
    createdAt: createdAtProperty(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

export type ApiToken = InferEntity<typeof ApiTokenSchema>;
