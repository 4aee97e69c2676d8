// Admin tokens, API tokens and the bearer header, without a database or a server.
import { createAdminTokens } from './admin-token.js';
import { generateApiToken, hashApiToken, looksLikeApiToken } from './api-token.js';
import { bearerToken } from './authenticate.js';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('tokens', () => {
  const config = { jwtSecret: 'a-jwt-secret-for-tests-only-0123456789', adminTokenTtlSeconds: 600 };

  it('admin tokens verify, expire and are bound to the derived key', () => {
    const tokens = createAdminTokens(config);
    const changedAt = new Date('2026-01-01T00:00:00.123Z');
    const { token, expiresAt } = tokens.issue(ID, changedAt);
    expect(tokens.verify(token)).toEqual({
      adminId: ID,
      passwordVersion: changedAt.getTime(),
      issuedAt: expect.any(Date),
    });
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(tokens.verify(tokens.issue(ID, changedAt, new Date(Date.now() - 601_000)).token)).toBeNull();
    expect(createAdminTokens({ ...config, jwtSecret: `${config.jwtSecret}!` }).verify(token)).toBeNull();
    const [header, payload, signature] = token.split('.');
    expect(tokens.verify(`${header}.${payload}.${signature!.slice(0, -2)}AA`)).toBeNull();
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expect(tokens.verify(none)).toBeNull();
  });

  it('API tokens have a fixed shape and a sha256 hash', () => {
    const { token, tokenHash } = generateApiToken();
    expect(looksLikeApiToken(token)).toBe(true);
    expect(tokenHash).toBe(hashApiToken(token));
    expect(tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(looksLikeApiToken(`${token}x`)).toBe(false);
  });

  it('reads bearer tokens strictly', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer   abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});
