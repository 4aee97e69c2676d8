// The JWT around the sealed claims: HS256 only, payload exactly `{ v: 1, d: '<sealed>', iat }`.
// No `exp`: site tokens are long-lived and are revoked by rotating the control code or deleting the site.
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { isPlainObject } from '../plain-object/index.js';
import { SiteTokenError } from './errors.js';

export const SITE_TOKEN_ALGORITHM = 'HS256';
export const SITE_TOKEN_VERSION = 1;

// Ours are about 300 characters; a cap keeps hostile input from costing more than a regex.
const MAX_TOKEN_LENGTH = 4096;
// Signature may be empty so that `alg: none` tokens reach the algorithm check and are named as such.
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const PAYLOAD_KEYS = new Set(['v', 'd', 'iat']);

// Given a string, jsonwebtoken first tries it as a PEM public key on every verify (a thrown and
// caught error each time: 6 % of a JSON submission's CPU in the bench profile). A secret KeyObject,
// made once, skips that, and jsonwebtoken refuses asymmetric algorithms for it.
let lastKey: { secret: string; key: KeyObject } | undefined;
function secretKeyOf(jwtSecret: string): KeyObject {
  if (lastKey?.secret !== jwtSecret) {
    lastKey = { secret: jwtSecret, key: createSecretKey(Buffer.from(jwtSecret, 'utf8')) };
  }
  return lastKey.key;
}

export function signEnvelope(sealed: string, jwtSecret: string): string {
  return jwt.sign({ v: SITE_TOKEN_VERSION, d: sealed }, jwtSecret, { algorithm: SITE_TOKEN_ALGORITHM });
}

/**
 * Verifies the token and returns its sealed claims. Checks run from cheapest to dearest: shape
 * ('malformed'), header algorithm ('algorithm'), HMAC ('signature'), payload shape ('payload').
 */
export function verifyEnvelope(token: string, jwtSecret: string): string {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !JWT_SHAPE.test(token)) {
    throw new SiteTokenError('malformed');
  }
  const [headerSegment = '', payloadSegment = ''] = token.split('.');
  const header = parseSegment(headerSegment);
  // RFC 7519: header and claims set are JSON objects; anything else is not a JWT at all. The claims'
  // contents are judged only after the signature, as 'payload'.
  if (!isPlainObject(header) || !isPlainObject(parseSegment(payloadSegment))) {
    throw new SiteTokenError('malformed');
  }
  // Checked by hand to name the reason; `algorithms` is pinned on verify as well, which is what
  // actually stops `none`, HS384/HS512 and RS256-with-the-secret-as-public-key confusion.
  if (header.alg !== SITE_TOKEN_ALGORITHM) {
    throw new SiteTokenError('algorithm');
  }
  let payload: unknown;
  try {
    // exp/nbf are skipped here so that the only failure left is the signature: ours never carry
    // them, and the strict claim check below refuses any payload that does, as 'payload'.
    payload = jwt.verify(token, secretKeyOf(jwtSecret), {
      algorithms: [SITE_TOKEN_ALGORITHM],
      ignoreExpiration: true,
      ignoreNotBefore: true,
    });
  } catch {
    throw new SiteTokenError('signature');
  }
  return readSealedClaims(payload);
}

function readSealedClaims(payload: unknown): string {
  if (!isPlainObject(payload) || !Object.keys(payload).every((key) => PAYLOAD_KEYS.has(key))) {
    throw new SiteTokenError('payload');
  }
  const { v, d, iat } = payload;
  if (v !== SITE_TOKEN_VERSION || typeof d !== 'string' || !Number.isSafeInteger(iat)) {
    throw new SiteTokenError('payload');
  }
  return d;
}

/** The JSON value of a base64url segment, or undefined when it is not JSON. */
function parseSegment(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
