import type { ApiToken } from '@intake/shared/entities';
import type { ApiTokenLevelEnum, ApiTokenType } from './api-token.type.js';

export function presentApiToken(apiToken: ApiToken): ApiTokenType {
  return {
    id: apiToken.id,
    name: apiToken.name,
    level: apiToken.level as ApiTokenLevelEnum,
    siteIds: apiToken.siteIds ?? null,
    expiresAt: apiToken.expiresAt ? apiToken.expiresAt.toISOString() : null,
    createdAt: apiToken.createdAt.toISOString(),
    lastUsedAt: apiToken.lastUsedAt ? apiToken.lastUsedAt.toISOString() : null,
  };
}
