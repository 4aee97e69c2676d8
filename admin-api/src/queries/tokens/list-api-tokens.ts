import type { Em } from '@intake/shared/db';
import { ApiTokenSchema, type ApiToken } from '@intake/shared/entities';

/** Tokens that are not revoked, oldest first. */
export function listApiTokens(em: Em): Promise<ApiToken[]> {
  return em.find(ApiTokenSchema, { revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}
