// WebAuthn challenges: random, handed to the browser in the ceremony's options, and answered inside
// the signed client data. The database keeps only their sha256; a challenge is used once (taking it
// deletes it, so two requests cannot both use it) and lives PASSKEY_CHALLENGE_TTL_SECONDS.
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, PasskeyChallengeSchema, type PasskeyChallengePurpose } from '@intake/shared/entities';
import { hashChallengeSecret, looksLikeChallengeSecret, newChallengeSecret } from '../challenge-secret.js';

export const PASSKEY_CHALLENGE_TTL_SECONDS = 5 * 60;

/** A new challenge (base64url of 32 random bytes) for this purpose and, where it has one, member. */
export async function issuePasskeyChallenge(
  em: Em,
  purpose: PasskeyChallengePurpose,
  adminId: string | null,
  now = new Date(),
): Promise<string> {
  const challenge = newChallengeSecret();
  await em.nativeDelete(PasskeyChallengeSchema, { expiresAt: { $lte: now } });
  em.create(PasskeyChallengeSchema, {
    admin: adminId === null ? null : em.getReference(AdminUserSchema, adminId),
    purpose,
    challengeHash: hashChallengeSecret(challenge),
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_SECONDS * 1000),
  });
  await em.flush();
  return challenge;
}

export interface TakenChallenge {
  /** The member it was issued for; null for a sign-in without a password before it. */
  adminId: string | null;
}

/**
 * Uses up a live challenge of this purpose: what it was issued for, or null when it is unknown,
 * used, expired or malformed. Only the one caller that deleted it gets it.
 */
export async function takePasskeyChallenge(
  em: Em,
  challenge: string,
  purpose: PasskeyChallengePurpose,
): Promise<TakenChallenge | null> {
  if (!looksLikeChallengeSecret(challenge)) {
    return null;
  }
  const challengeHash = hashChallengeSecret(challenge);
  const found = await em.findOne(PasskeyChallengeSchema, {
    challengeHash,
    purpose,
    expiresAt: { $gt: new Date() },
  });
  if (found === null || (await em.nativeDelete(PasskeyChallengeSchema, { id: found.id })) !== 1) {
    return null;
  }
  return { adminId: found.admin?.id ?? null };
}
