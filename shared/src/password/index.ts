import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Admin passwords hashed with scrypt from node:crypto (no native addon to build). The stored form
// carries its parameters so they can be raised later without breaking old hashes:
// scrypt$N$r$p$<salt base64url>$<hash base64url>
// N = 2^17, r = 8, p = 1 is OWASP's current minimum for scrypt: 128 MiB and a few hundred ms per
// hash. Hashes with older parameters still verify, and are re-hashed at the next good login.
export const PASSWORD_HASH_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

interface HashParams {
  N: number;
  r: number;
  p: number;
}

/** The parameters new hashes get: today's, except in tests that lower them (useCheapPasswordHashes). */
let hashParams: HashParams = PASSWORD_HASH_PARAMS;

/**
 * For test runs only, never reachable from configuration: hash with cheaper parameters. The suites
 * sign in thousands of times, and at the production cost (a few hundred ms a hash on the 2-core
 * machine) that was minutes of `npm test`. The production parameters keep a test of their own.
 */
export function useCheapPasswordHashes(params: HashParams | null): void {
  hashParams = params ?? PASSWORD_HASH_PARAMS;
  dummyHash = undefined;
}
/** Parameters a stored hash may ask for: at most the current memory cost, so a row cannot exhaust memory. */
const MAX_COST = PASSWORD_HASH_PARAMS.N * PASSWORD_HASH_PARAMS.r;

/** scrypt needs 128 × N × r bytes; Node refuses anything over `maxmem` (32 MiB by default). */
function memoryFor(options: ScryptOptions): number {
  return 128 * (options.N ?? 0) * (options.r ?? 0) + 1024 * 1024;
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: memoryFor(options) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = hashParams;
  const key = await derive(password, salt, hashParams);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface StoredHash {
  params: { N: number; r: number; p: number };
  salt: Buffer;
  hash: Buffer;
}

function parseStoredHash(stored: string): StoredHash | undefined {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !salt || !hash || !Object.values(params).every((value) => Number.isSafeInteger(value))) {
    return undefined;
  }
  if (params.N < 2 || params.r < 1 || params.p < 1 || params.N * params.r > MAX_COST || params.p > 16) {
    return undefined;
  }
  return { params, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) {
    return false;
  }
  const actual = await derive(password, parsed.salt, parsed.params);
  return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
}

/** True when a stored hash was made with other parameters than today's: re-hash it at the next good login. */
export function passwordNeedsRehash(stored: string): boolean {
  const parsed = parseStoredHash(stored);
  const { N, r, p } = hashParams;
  return !parsed || parsed.params.N !== N || parsed.params.r !== r || parsed.params.p !== p;
}

/**
 * A real hash of nothing, with today's parameters, verified against when the e-mail is unknown so
 * timing tells nothing: it costs what verifying a current hash costs.
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}
