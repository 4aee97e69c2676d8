import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

// A browser challenge (docs/static-sites.md) that was answered once: kept until it expires, so the
// same answer is refused when sent again, by any gateway process and after a restart.
export const UsedChallengeSchema = defineEntity({
  name: 'UsedChallenge',
  tableName: 'used_challenges',
  properties: {
    /** The challenge's random nonce (hex). */
    nonce: p.string().length(64).primary(),
    expiresAt: p.datetime().index(),
  },
});

export type UsedChallenge = InferEntity<typeof UsedChallengeSchema>;
