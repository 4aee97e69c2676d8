// The proof-of-work challenge of browser posts (docs/static-sites.md), ALTCHA's protocol through
// altcha-lib: the gateway hands out challenges signed with a key derived from JWT_SECRET, for one
// form and for a limited time, and takes each answer once. An answered challenge is remembered in
// the database until it expires (table used_challenges), so every gateway process, and a restarted
// one, refuses it again.
import { challengeDifficultyOf, CHALLENGE_FIELD } from '@intake/shared/browser-posting';
import type { Em } from '@intake/shared/db';
import { deriveKey as deriveSecret } from '@intake/shared/download-links';
import type { Form } from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';
import type { Challenge, createChallenge, Payload, randomInt, verifySolution } from 'altcha-lib';
import type { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

const ALGORITHM = 'PBKDF2/SHA-256';
/** PBKDF2 iterations of one attempt; the form's difficulty sets how many attempts a browser makes. */
export const CHALLENGE_COST = 1_000;
/** A challenge lives this long: long enough to correct a refused field and send again. */
export const CHALLENGE_TTL_MS = 15 * 60 * 1000;
/** A payload longer than this is no answer the widget makes (it is about 700 characters). */
const MAX_PAYLOAD_LENGTH = 4096;

export interface ChallengeKeys {
  signature: string;
  keySignature: string;
}

/** Two keys derived from JWT_SECRET: no new secret to set, and worth nothing for anything else. */
export function challengeKeys(jwtSecret: string): ChallengeKeys {
  return {
    signature: deriveSecret(jwtSecret, 'intake browser challenge signature v1').toString('hex'),
    keySignature: deriveSecret(jwtSecret, 'intake browser challenge key v1').toString('hex'),
  };
}

// altcha-lib is loaded by the first challenge issued or answered: most forms never ask for one.
interface Altcha {
  createChallenge: typeof createChallenge;
  randomInt: typeof randomInt;
  verifySolution: typeof verifySolution;
  deriveKey: typeof deriveKey;
}

let altcha: Promise<Altcha> | undefined;

function loadAltcha(): Promise<Altcha> {
  altcha ??= Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/pbkdf2')]).then(([lib, pbkdf2]) => ({
    createChallenge: lib.createChallenge,
    randomInt: lib.randomInt,
    verifySolution: lib.verifySolution,
    deriveKey: pbkdf2.deriveKey,
  }));
  return altcha;
}

/** A new challenge for this form: about `difficulty` attempts of ALGORITHM to solve. */
export async function issueChallenge(keys: ChallengeKeys, form: Pick<Form, 'code' | 'browserChallengeDifficulty'>) {
  const difficulty = challengeDifficultyOf(form);
  const { createChallenge, randomInt, deriveKey } = await loadAltcha();
  return createChallenge({
    algorithm: ALGORITHM,
    cost: CHALLENGE_COST,
    // Deterministic mode: the answer is this counter, so the server checks it with one HMAC.
    counter: randomInt(Math.ceil(difficulty / 2), Math.floor((difficulty * 3) / 2)),
    deriveKey,
    data: { form: form.code },
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    hmacSignatureSecret: keys.signature,
    hmacKeySignatureSecret: keys.keySignature,
  });
}

/** Why an answer was not taken: nothing sent, or something that is not a valid, unused answer. */
export type ChallengeFailure = 'challenge_missing' | 'challenge_invalid';

function decodePayload(text: string): Payload | null {
  if (text.length > MAX_PAYLOAD_LENGTH) {
    return null;
  }
  try {
    const payload = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Partial<Payload> | null;
    const challenge = payload?.challenge as Challenge | null | undefined;
    if (!challenge || typeof challenge !== 'object' || !challenge.parameters || !payload?.solution) {
      return null;
    }
    return payload as Payload;
  } catch {
    return null;
  }
}

/**
 * Checks the answer in `fields` (taken out of them, never stored): signed by us, for this form, not
 * expired, solved, and not used before (claimed now, atomically). Resolves with the fields without
 * the answer and, when it does not hold, why.
 */
export async function checkChallengeAnswer(
  keys: ChallengeKeys,
  em: Em,
  form: Pick<Form, 'code'>,
  fields: Record<string, unknown>,
): Promise<{ fields: Record<string, unknown>; failure: ChallengeFailure | null }> {
  const { [CHALLENGE_FIELD]: answer, ...rest } = fields;
  if (typeof answer !== 'string' || answer.trim() === '') {
    return { fields: rest, failure: 'challenge_missing' };
  }
  const payload = decodePayload(answer.trim());
  if (payload === null || payload.challenge.parameters.data?.form !== form.code) {
    return { fields: rest, failure: 'challenge_invalid' };
  }
  const { verifySolution, deriveKey } = await loadAltcha();
  let verified: boolean;
  try {
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: keys.signature,
      hmacKeySignatureSecret: keys.keySignature,
    });
    // A signed challenge always carries its expiry; one without could be answered for ever.
    verified = result.verified && typeof payload.challenge.parameters.expiresAt === 'number';
  } catch {
    // Malformed parameters (not hex, an unknown algorithm) make the library throw.
    verified = false;
  }
  if (!verified || !(await claim(em, payload.challenge.parameters.nonce, payload.challenge.parameters.expiresAt!))) {
    return { fields: rest, failure: 'challenge_invalid' };
  }
  return { fields: rest, failure: null };
}

/** Takes the challenge for this post; false when another post took it first. Sweeps expired ones. */
async function claim(em: Em, nonce: string, expiresAtSeconds: number): Promise<boolean> {
  if (typeof nonce !== 'string' || !/^[0-9a-f]{1,64}$/.test(nonce)) {
    return false;
  }
  const connection = em.getConnection();
  await connection.execute(`delete from "used_challenges" where "expires_at" < now()`, [], 'run');
  const claimed = await connection.execute<{ nonce: string }[]>(
    `insert into "used_challenges" ("nonce", "expires_at") values (?, to_timestamp(?))
     on conflict ("nonce") do nothing returning "nonce"`,
    [nonce, expiresAtSeconds],
    'all',
  );
  return claimed.length === 1;
}

/** The refusal of a post whose challenge does not hold, when the form requires one. */
export function challengeRefusal(failure: ChallengeFailure): AppError {
  return new AppError(
    'captcha_invalid',
    failure === 'challenge_missing'
      ? 'The challenge was not answered: this form needs JavaScript to send.'
      : 'The challenge answer is not valid: it is expired, already used, or for another form. Send the form again.',
  );
}
