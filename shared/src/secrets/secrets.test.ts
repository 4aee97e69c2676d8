import { randomBytes } from 'node:crypto';
import { decodeStrictBase64, estimateSecretStrength, generateSecret, isStrongSecret } from './index.js';

describe('generateSecret', () => {
  it('makes 32 random bytes as base64url by default, strong enough for production', () => {
    const secrets = new Set(Array.from({ length: 100 }, () => generateSecret()));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) {
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(isStrongSecret(secret)).toBe(true);
    }
  });

  it('makes hex on request, and other sizes', () => {
    const hex = generateSecret(32, 'hex');
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    expect(isStrongSecret(hex)).toBe(true);
    expect(Buffer.from(generateSecret(48), 'base64url')).toHaveLength(48);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %p bytes', (bytes) => {
    expect(() => generateSecret(bytes)).toThrow(RangeError);
  });
});

describe('estimateSecretStrength / isStrongSecret', () => {
  it('counts 64 random hex characters as 32 bytes, 63 as too few', () => {
    const hex = randomBytes(32).toString('hex');
    expect(estimateSecretStrength(hex)).toBe(32);
    expect(isStrongSecret(hex)).toBe(true);
    expect(isStrongSecret(hex.slice(1))).toBe(false);
    expect(isStrongSecret(randomBytes(24).toString('hex'))).toBe(false);
  });

  it('accepts base64 and base64url of 32 random bytes, refuses 31', () => {
    const bytes = randomBytes(32);
    expect(isStrongSecret(bytes.toString('base64'))).toBe(true);
    expect(isStrongSecret(bytes.toString('base64url'))).toBe(true);
    expect(isStrongSecret(randomBytes(31).toString('base64url'))).toBe(false);
  });

  it('accepts a long passphrase with varied characters', () => {
    expect(isStrongSecret('Tr0ub4dor&3 meets correct-horse-battery-staple!')).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['a placeholder', 'changeme'],
    ['one repeated character', 'a'.repeat(128)],
    ['one repeated hex digit', '0'.repeat(64)],
    ['a repeated pattern', 'abcdefghijklmnopq'.repeat(4)],
    ['a repeated hex pattern', '0123456789abcdef'.repeat(4)],
    ['a long string of few distinct characters', 'abababababcabcabcabcaabbccabcabcbcbcbacbabcabcbacbacbacbcab'],
    ['a short random string', randomBytes(16).toString('base64url')],
    ['42 varied characters', 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEF'],
  ])('refuses %s', (_name, value) => {
    expect(isStrongSecret(value)).toBe(false);
  });

  it('takes another minimum', () => {
    const sixteen = randomBytes(16).toString('hex');
    expect(isStrongSecret(sixteen, 16)).toBe(true);
    expect(isStrongSecret(sixteen)).toBe(false);
  });
});

describe('decodeStrictBase64', () => {
  it('decodes canonical base64 and base64url only', () => {
    const bytes = randomBytes(20);
    expect(decodeStrictBase64(bytes.toString('base64'))).toEqual(bytes);
    expect(decodeStrictBase64(bytes.toString('base64url'))).toEqual(bytes);
    expect(decodeStrictBase64('')).toBeNull();
    expect(decodeStrictBase64('QQ')).toEqual(Buffer.from('A'));
    expect(decodeStrictBase64('QR')).toBeNull(); // trailing bits set: not canonical
    expect(decodeStrictBase64('QQ=')).toBeNull(); // wrong padding
    expect(decodeStrictBase64('Q Q==')).toBeNull();
    expect(decodeStrictBase64('a+b_')).toBeNull(); // two alphabets mixed
  });
});
