// The console decides where signing in leads with the admin API's own function: return-path.ts is
// a byte-for-byte copy of shared/src/return-path/index.ts (the console's bundle loads nothing of
// shared), where it is property-tested. This holds the copy identical.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { safeReturnPath } from './return-path.js';

const read = (relative: string) => readFileSync(new URL(relative, import.meta.url), 'utf8');

describe('return-path.ts', () => {
  it('is the same file as the one the admin API uses', () => {
    expect(read('./return-path.ts')).toBe(read('../../../shared/src/return-path/index.ts'));
  });

  it('sends the sign-in page home instead of to another host', () => {
    expect(safeReturnPath('/.//evil.example/x')).toBe('/sites');
    expect(safeReturnPath('/api-tokens?x=1#y')).toBe('/api-tokens?x=1#y');
  });
});
