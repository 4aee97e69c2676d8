import type { Em } from '@intake/shared/db';
import { ApiTokenSchema, type ApiToken } from '@intake/shared/entities';

/** Tokens that are not revoked, oldest first: every member's, or only those of `memberId`. */
export function listApiTokens(em: Em, memberId: string | null): Promise<ApiToken[]> {
  return em.find(
    ApiTokenSchema,
    { revokedAt: null, ...(memberId === null ? {} : { createdBy: memberId }) },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
}
