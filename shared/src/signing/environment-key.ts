import type { KeyEntry } from './key-entry.js';
import { readEd25519Jwk } from './key-entry.js';

const NAME = 'RECEIPT_SIGNING_KEY';

/**
 * Parses `RECEIPT_SIGNING_KEY`: one private Ed25519 JWK, or a JSON array whose first element is
 * the current (private) key and whose others are earlier keys, each with an optional `retiredAt`
 * (ISO 8601). An earlier key without `retiredAt` stays published for as long as it is listed.
 * Errors name the variable and the position, never the value.
 */
export function parseEnvironmentKeys(value: string): KeyEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error(`${NAME}: must be a JSON Web Key or a JSON array of them`);
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (list.length === 0) {
    throw new Error(`${NAME}: the array is empty; its first key signs`);
  }
  return list.map((item: unknown, position) => {
    const where = Array.isArray(parsed) ? `${NAME}[${position}]` : NAME;
    const { retiredAt, ...jwk } = (item ?? {}) as Record<string, unknown>;
    const entry: KeyEntry = { jwk: readEd25519Jwk(jwk, where, position === 0) };
    if (position > 0 && retiredAt !== undefined) {
      const date = typeof retiredAt === 'string' ? new Date(retiredAt) : new Date(Number.NaN);
      if (Number.isNaN(date.getTime())) {
        throw new Error(`${where}: "retiredAt" must be an ISO 8601 date`);
      }
      entry.retiredAt = date;
    }
    return entry;
  });
}
