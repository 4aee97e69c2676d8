// The signing keys: made once in DATA_DIR with mode 0600 or taken from RECEIPT_SIGNING_KEY, their
// statements checked with Node's own Ed25519 (not jose), and retired keys published for their
// retention only.
import { createPublicKey, generateKeyPairSync, verify as cryptoVerify, type JsonWebKey } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompactSign, type JSONWebKeySet } from 'jose';
import { keyFilePath, loadSigningKeys, rotateKeyFile, type SigningConfig } from './index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function fileConfig(dataDir = mkdtempSync(path.join(tmpdir(), 'intake-signing-'))): SigningConfig {
  return { dataDir, receiptSigning: { key: undefined, keyRetentionDays: 30 } };
}

function environmentConfig(key: string, keyRetentionDays = 30): SigningConfig {
  return { dataDir: mkdtempSync(path.join(tmpdir(), 'intake-signing-')), receiptSigning: { key, keyRetentionDays } };
}

function newPrivateJwk(kid?: string): JsonWebKey {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return kid === undefined ? jwk : { ...jwk, kid };
}

/** Verifies a compact JWS with node:crypto against a JWKS: the payload, or null when it does not verify. */
function independentlyVerified(jws: string, jwks: JSONWebKeySet): unknown {
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  const { alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string; kid: string };
  const jwk = jwks.keys.find((key) => key.kid === kid);
  if (alg !== 'EdDSA' || !jwk) {
    return null;
  }
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  const valid = cryptoVerify(null, Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'));
  return valid ? JSON.parse(Buffer.from(payload, 'base64url').toString()) : null;
}

describe('signing keys in DATA_DIR', () => {
  it('makes one key on first start in a mode 0600 file and signs with it again after a restart', async () => {
    const config = fileConfig();
    const first = await loadSigningKeys(config);
    expect(statSync(keyFilePath(config.dataDir)).mode & 0o777).toBe(0o600);
    const again = await loadSigningKeys(config);
    expect(again.kid).toBe(first.kid);

    const jws = await again.sign({ hello: 'world' }, 'test+jws');
    expect(independentlyVerified(jws, first.jwks())).toEqual({ hello: 'world' });
    expect(JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString())).toEqual({
      alg: 'EdDSA',
      kid: first.kid,
      typ: 'test+jws',
    });
  });

  it("signs byte for byte as jose's CompactSign does with the same key (Ed25519 is deterministic)", async () => {
    const keys = await loadSigningKeys(fileConfig());
    for (const payload of [{ hello: 'world' }, { data: 'é👋\u2028<script>', n: [1, 2.5, null], nested: { a: true } }]) {
      const byJose = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid, typ: 'test+jws' })
        .sign(keys.privateKey);
      expect(await keys.sign(payload, 'test+jws')).toBe(byJose);
    }
  });

  it('publishes only public members, with the key id as the RFC 7638 thumbprint', async () => {
    const keys = await loadSigningKeys(fileConfig());
    const [published] = keys.jwks().keys;
    expect(Object.keys(published!).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    expect(keys.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('agrees on one key when several processes start at once', async () => {
    const config = fileConfig();
    const loaded = await Promise.all(Array.from({ length: 8 }, () => loadSigningKeys(config)));
    expect(new Set(loaded.map((keys) => keys.kid)).size).toBe(1);
  });

  it('tightens a key file restored with a looser mode', async () => {
    const config = fileConfig();
    await loadSigningKeys(config);
    chmodSync(keyFilePath(config.dataDir), 0o644);
    await loadSigningKeys(config);
    expect(statSync(keyFilePath(config.dataDir)).mode & 0o777).toBe(0o600);
  });

  it('rotates: a new key signs, the old one stays published and what it signed still verifies', async () => {
    const config = fileConfig();
    const before = await loadSigningKeys(config);
    const oldJws = await before.sign({ n: 1 }, 'test+jws');

    await rotateKeyFile(config.dataDir);
    const after = await loadSigningKeys(config);
    expect(after.kid).not.toBe(before.kid);
    expect(after.jwks().keys.map((key) => key.kid)).toEqual([after.kid, before.kid]);
    expect(independentlyVerified(oldJws, after.jwks())).toEqual({ n: 1 });
    await expect(after.verify(oldJws)).resolves.toMatchObject({ payload: { n: 1 }, kid: before.kid });
    expect(statSync(keyFilePath(config.dataDir)).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFilePath(config.dataDir), 'utf8')).toContain('"retiredAt"');

    // Past the retention the old key is no longer published, and what it signed no longer verifies.
    const later = new Date(Date.now() + 31 * DAY_MS);
    expect(after.jwks(later).keys.map((key) => key.kid)).toEqual([after.kid]);
    await expect(after.verify(oldJws, later)).rejects.toThrow();
  });
});

describe('signing keys from RECEIPT_SIGNING_KEY', () => {
  it('signs with the given JWK under its own kid, and writes no key file', async () => {
    const config = environmentConfig(JSON.stringify(newPrivateJwk('2026-11')));
    const keys = await loadSigningKeys(config);
    expect(keys.kid).toBe('2026-11');
    const jws = await keys.sign({ a: 1 }, 'test+jws');
    expect(independentlyVerified(jws, keys.jwks())).toEqual({ a: 1 });
    expect(() => statSync(keyFilePath(config.dataDir))).toThrow();
  });

  it('keeps a retired key of the array published for the retention after its retiredAt', async () => {
    const oldKey = newPrivateJwk('old');
    const oldKeys = await loadSigningKeys(environmentConfig(JSON.stringify(oldKey)));
    const oldJws = await oldKeys.sign({ signed: 'before' }, 'test+jws');

    const retiredAt = new Date(Date.now() - 10 * DAY_MS).toISOString();
    const { d: _private, ...oldPublic } = oldKey;
    const rotated = await loadSigningKeys(
      environmentConfig(JSON.stringify([newPrivateJwk('new'), { ...oldPublic, retiredAt }]), 30),
    );
    expect(rotated.kid).toBe('new');
    await expect(rotated.verify(oldJws)).resolves.toMatchObject({ payload: { signed: 'before' }, kid: 'old' });
    expect(independentlyVerified(oldJws, rotated.jwks())).toEqual({ signed: 'before' });

    const expired = await loadSigningKeys(
      environmentConfig(JSON.stringify([newPrivateJwk('new'), { ...oldPublic, retiredAt }]), 5),
    );
    expect(expired.jwks().keys.map((key) => key.kid)).toEqual(['new']);
    await expect(expired.verify(oldJws)).rejects.toThrow();
  });

  it('refuses what another key signed, and a changed payload', async () => {
    const keys = await loadSigningKeys(environmentConfig(JSON.stringify(newPrivateJwk('mine'))));
    const stranger = await loadSigningKeys(environmentConfig(JSON.stringify(newPrivateJwk('mine'))));
    const foreign = await stranger.sign({ a: 1 }, 'test+jws');
    await expect(keys.verify(foreign)).rejects.toThrow();
    expect(independentlyVerified(foreign, keys.jwks())).toBeNull();

    const [header, , signature] = (await keys.sign({ a: 1 }, 'test+jws')).split('.');
    const changed = `${header}.${Buffer.from(JSON.stringify({ a: 2 })).toString('base64url')}.${signature}`;
    await expect(keys.verify(changed)).rejects.toThrow();
    expect(independentlyVerified(changed, keys.jwks())).toBeNull();
  });

  it.each([
    ['not JSON', 'not json', /^RECEIPT_SIGNING_KEY: must be a JSON Web Key/],
    ['an empty array', '[]', /^RECEIPT_SIGNING_KEY: the array is empty/],
    [
      'a P-256 key',
      JSON.stringify(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })),
      /^RECEIPT_SIGNING_KEY: must be an Ed25519 key/,
    ],
    ['a public key to sign with', JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: 'abc' }), /must be private/],
    [
      'a retired key with a bad date',
      JSON.stringify([newPrivateJwk(), { kty: 'OKP', crv: 'Ed25519', x: 'abc', retiredAt: 'soon' }]),
      /^RECEIPT_SIGNING_KEY\[1\]: "retiredAt" must be an ISO 8601 date/,
    ],
  ])('refuses %s, naming the variable and never its value', async (_case, value, message) => {
    const error = await loadSigningKeys(environmentConfig(value)).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    for (const secret of value.match(/"d":"[^"]+"/g) ?? []) {
      expect((error as Error).message).not.toContain(secret.slice(5, -1));
    }
  });
});
