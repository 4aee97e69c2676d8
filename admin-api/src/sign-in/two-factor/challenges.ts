// Second-factor challenges: after a right password, `login` answers SECOND_FACTOR_REQUIRED with a
// random challenge instead of a session, so the console can forget the password at once; after a
// single sign-on, the callback hands the console one the same way (sso/oidc-routes.ts). The database
// keeps only its sha256. A challenge lives CHALLENGE_TTL_SECONDS, is used once, and ends after
// CHALLENGE_MAX_FAILURES wrong codes (the sign-in limits count them too).
import type { Em } from '@intake/shared/db';
import { SecondFactorChallengeSchema } from '@intake/shared/entities';
import type { ProviderAccount } from '../sso/account-link.js';
import { hashChallengeSecret, looksLikeChallengeSecret, newChallengeSecret } from '../challenge-secret.js';

export const CHALLENGE_TTL_SECONDS = 5 * 60;
export const CHALLENGE_MAX_FAILURES = 5;

export interface IssuedChallenge {
  challenge: string;
  expiresAt: Date;
}

/** A new challenge for the member; `sso`: the provider's account of the single sign-on it follows. */
export async function issueChallenge(
  em: Em,
  adminId: string,
  sso: ProviderAccount | null = null,
  now = new Date(),
): Promise<IssuedChallenge> {
  const challenge = newChallengeSecret();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_SECONDS * 1000);
  await em.nativeDelete(SecondFactorChallengeSchema, { admin: adminId, expiresAt: { $lte: now } });
  em.create(SecondFactorChallengeSchema, {
    admin: adminId,
    secretHash: hashChallengeSecret(challenge),
    expiresAt,
    ssoIssuer: sso?.issuer ?? null,
    ssoSubject: sso?.subject ?? null,
  });
  await em.flush();
  return { challenge, expiresAt };
}

export interface FoundChallenge {
  id: string;
  adminId: string;
  /** The provider's account when a single sign-on came first; null after a password. */
  sso: ProviderAccount | null;
  expiresAt: Date;
}

/** The live challenge, or null for anything else (unknown, used, expired, malformed). */
export async function findChallenge(em: Em, challenge: string): Promise<FoundChallenge | null> {
  if (!looksLikeChallengeSecret(challenge)) {
    return null;
  }
  const found = await em.findOne(SecondFactorChallengeSchema, {
    secretHash: hashChallengeSecret(challenge),
    expiresAt: { $gt: new Date() },
    failedAttempts: { $lt: CHALLENGE_MAX_FAILURES },
  });
  if (found === null) {
    return null;
  }
  const sso = found.ssoIssuer && found.ssoSubject ? { issuer: found.ssoIssuer, subject: found.ssoSubject } : null;
  return { id: found.id, adminId: found.admin.id, sso, expiresAt: found.expiresAt };
}

/** Ends the challenge; true only for the one caller that ended it (two requests cannot both use it). */
export async function useChallenge(em: Em, id: string): Promise<boolean> {
  return (await em.nativeDelete(SecondFactorChallengeSchema, { id })) === 1;
}

export async function countChallengeFailure(em: Em, id: string): Promise<void> {
  const found = await em.findOne(SecondFactorChallengeSchema, { id });
  if (found !== null) {
    await em.nativeUpdate(SecondFactorChallengeSchema, { id }, { failedAttempts: found.failedAttempts + 1 });
  }
}

export async function endChallenges(em: Em, adminId: string): Promise<void> {
  await em.nativeDelete(SecondFactorChallengeSchema, { admin: adminId });
}
