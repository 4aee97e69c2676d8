import type { Em } from '@intake/shared/db';
import { AdminUserSchema, ApiTokenSchema, type ApiToken } from '@intake/shared/entities';
import { generateApiToken } from '../../auth/api-token.js';

export interface CreatedApiToken {
  /** The secret: in this answer only; only its sha256 is stored. */
  token: string;
  apiToken: ApiToken;
}

/** A new API token of an administrator. */
export async function createApiToken(em: Em, adminId: string, name: string): Promise<CreatedApiToken> {
  const { token, tokenHash } = generateApiToken();
  const apiToken = em.create(ApiTokenSchema, {
    name,
    tokenHash,
    createdBy: em.getReference(AdminUserSchema, adminId),
    lastUsedAt: null,
    revokedAt: null,
  });
  await em.flush();
  return { token, apiToken };
}
