import type { Em } from '@intake/shared/db';
import { ApiTokenSchema } from '@intake/shared/entities';

/**
 * The token stops working at once; false when there was no such live token (among those of
 * `memberId` when given: someone else's token is answered as if it did not exist).
 */
export async function revokeApiToken(em: Em, tokenId: string, memberId: string | null): Promise<boolean> {
  const where = { id: tokenId, revokedAt: null, ...(memberId === null ? {} : { createdBy: memberId }) };
  return (await em.nativeUpdate(ApiTokenSchema, where, { revokedAt: new Date() })) > 0;
}
