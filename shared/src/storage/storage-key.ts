import { randomBytes } from 'node:crypto';

// Keys are `ab/<40 hex>`: random, fanned out over 256 prefixes, and the same on every driver. Only
// keys of this shape are read, deleted or listed, so no client text reaches a path or an object name,
// and the orphan sweep never touches an object that Intake did not write.
const KEY_PATTERN = /^[a-f0-9]{2}\/[a-f0-9]{40}$/;

/** A new key, in the fan-out folder given (two hex digits) or a random one. */
export function newStorageKey(prefix = randomBytes(1).toString('hex')): string {
  return `${prefix}/${randomBytes(20).toString('hex')}`;
}

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Throws on anything that is not a storage key (a programming error, never client input). */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) {
    throw new Error('invalid storage key');
  }
}
