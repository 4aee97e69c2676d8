import type { Em } from '@intake/shared/db';
import { AdminUserSchema, ApiTokenSchema, type ApiToken, type ApiTokenLevel } from '@intake/shared/entities';
import { generateApiToken } from '../access/api-token.js';

export interface CreatedApiToken {
  /** The secret: in this answer only; only its sha256 is stored. */
  token: string;
  apiToken: ApiToken;
}

/** What a new token may do and until when, already checked against its member. */
export interface ApiTokenScope {
  level: ApiTokenLevel;
  /** null: every site its member may see. */
  siteIds: string[] | null;
  /** null: never ends. */
  expiresAt: Date | null;
}

/** A new API token of a member. */
export async function createApiToken(
  em: Em,
  memberId: string,
  name: string,
  scope: ApiTokenScope,
): Promise<CreatedApiToken> {
  const { token, tokenHash } = generateApiToken();
  const apiToken = em.create(ApiTokenSchema, {
    name,
    tokenHash,
    createdBy: em.getReference(AdminUserSchema, memberId),
    level: scope.level,
    siteIds: scope.siteIds,
    expiresAt: scope.expiresAt,
    lastUsedAt: null,
    revokedAt: null,
  });
  await em.flush();
  return { token, apiToken };
}
