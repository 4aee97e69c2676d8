import type { Em } from '@intake/shared/db';
import { ApiTokenSchema } from '@intake/shared/entities';

/** The token stops working at once; false when there was no such live token. */
export async function revokeApiToken(em: Em, tokenId: string): Promise<boolean> {
  return (await em.nativeUpdate(ApiTokenSchema, { id: tokenId, revokedAt: null }, { revokedAt: new Date() })) > 0;
}
