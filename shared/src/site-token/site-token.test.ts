import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { parseEncryptionKey } from '../secrets/index.js';
import { seal } from './cipher.js';
import {
  createSiteTokenCodec,
  generateControlCode,
  generateFormCode,
  isSiteTokenError,
  verifySiteToken,
  type SiteRecord,
  type SiteTokenCodec,
  type SiteTokenErrorReason,
} from './index.js';

// Real crypto throughout: fresh secrets per run, tokens crafted by hand where an attacker would.
const jwtSecret = randomBytes(32).toString('base64url');
const keyA = randomBytes(32);
const keyB = randomBytes(32);
const codec = createSiteTokenCodec({ jwtSecret, encryptionKey: keyA });
const siteId = randomUUID();
const controlCode = generateControlCode();

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function hmac(hash: 'sha256' | 'sha384' | 'sha512', input: string, secret: string): string {
  return createHmac(hash, secret).update(input).digest('base64url');
}

/** A JWT assembled by hand: any header, any payload, signed (or not) with HMAC. */
function craft(header: object, payload: unknown, sign?: { hash: 'sha256' | 'sha384' | 'sha512'; secret: string }) {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${sign ? hmac(sign.hash, input, sign.secret) : ''}`;
}

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Every error thrown while refusing a token, to check afterwards that none leaks a secret. */
const refusals: { token: string; error: unknown }[] = [];

function reasonOf(token: string, using: SiteTokenCodec = codec): SiteTokenErrorReason {
  try {
    using.decode(token);
  } catch (error) {
    refusals.push({ token, error });
    if (isSiteTokenError(error)) {
      return error.reason;
    }
    throw error;
  }
  throw new Error('token was accepted');
}

const valid = codec.issue(siteId, controlCode);
const validSealed = payloadOf(valid).d as string;
const now = Math.floor(Date.now() / 1000);

describe('site token codec', () => {
  it('round-trips the site id and control code', () => {
    expect(codec.decode(valid)).toEqual({ siteId, controlCode });
  });

  it('issues an HS256 JWT whose payload is only { v, d, iat } and hides the claims', () => {
    const header = JSON.parse(Buffer.from(valid.split('.')[0] ?? '', 'base64url').toString('utf8')) as unknown;
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    const payload = payloadOf(valid);
    expect(Object.keys(payload).sort()).toEqual(['d', 'iat', 'v']);
    expect(payload.v).toBe(1);
    expect(payload.d).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(payload).not.toHaveProperty('exp');
    const decoded = Buffer.from(valid.split('.')[1] ?? '', 'base64url').toString('utf8');
    expect(decoded).not.toContain(siteId);
    expect(decoded).not.toContain(controlCode);
  });

  it('uses a fresh IV each time: two tokens for one site differ and both decode', () => {
    const first = codec.issue(siteId, controlCode);
    const second = codec.issue(siteId, controlCode);
    expect(first).not.toBe(second);
    const [ivFirst] = (payloadOf(first).d as string).split('.');
    const [ivSecond] = (payloadOf(second).d as string).split('.');
    expect(ivFirst).not.toBe(ivSecond);
    expect(codec.decode(first)).toEqual({ siteId, controlCode });
    expect(codec.decode(second)).toEqual({ siteId, controlCode });
  });

  it('refuses to issue for a site id that is not a UUID or an empty control code, without echoing them', () => {
    expect(() => codec.issue('site-42', controlCode)).toThrow(TypeError);
    expect(() => codec.issue(siteId, '')).toThrow(TypeError);
    try {
      codec.issue('not-a-uuid-secretish', controlCode);
    } catch (error) {
      expect(String(error)).not.toContain('secretish');
      expect(String(error)).not.toContain(controlCode);
    }
  });

  it('refuses an empty JWT secret or a key that is not 32 bytes', () => {
    expect(() => createSiteTokenCodec({ jwtSecret: '', encryptionKey: keyA })).toThrow(/jwtSecret/);
    expect(() => createSiteTokenCodec({ jwtSecret, encryptionKey: randomBytes(16) })).toThrow(/32-byte/);
  });

  it('keeps its own copy of the key', () => {
    const key = Buffer.from(keyA);
    const own = createSiteTokenCodec({ jwtSecret, encryptionKey: key });
    key.fill(0);
    expect(own.decode(valid)).toEqual({ siteId, controlCode });
  });
});

describe('site token decode refuses', () => {
  it.each([
    ['alg none, no signature', { alg: 'none', typ: 'JWT' }, undefined],
    ['alg None, no signature', { alg: 'None', typ: 'JWT' }, undefined],
    ['alg none, with an HS256 signature', { alg: 'none', typ: 'JWT' }, 'sha256'],
    ['no alg at all', { typ: 'JWT' }, 'sha256'],
  ] as const)('%s', (_name, header, hash) => {
    const payload = { v: 1, d: validSealed, iat: now };
    const token = craft(header, payload, hash ? { hash, secret: jwtSecret } : undefined);
    expect(reasonOf(token)).toBe('algorithm');
  });

  it.each(['HS384', 'HS512'] as const)('%s signed with the same secret (algorithm pinned)', (algorithm) => {
    const token = jwt.sign({ v: 1, d: validSealed }, jwtSecret, { algorithm });
    expect(reasonOf(token)).toBe('algorithm');
  });

  it('an RS256 header HMAC-signed with the secret (key-confusion attack)', () => {
    const token = craft(
      { alg: 'RS256', typ: 'JWT' },
      { v: 1, d: validSealed, iat: now },
      { hash: 'sha256', secret: jwtSecret },
    );
    expect(reasonOf(token)).toBe('algorithm');
  });

  it('a token signed with another JWT secret', () => {
    const other = createSiteTokenCodec({ jwtSecret: randomBytes(32).toString('base64url'), encryptionKey: keyA });
    expect(reasonOf(other.issue(siteId, controlCode))).toBe('signature');
  });

  it('a tampered payload segment', () => {
    const [header, payload = '', signature] = valid.split('.');
    const at = Math.floor(payload.length / 2);
    const flipped = payload[at] === 'A' ? 'B' : 'A';
    const tampered = `${header}.${payload.slice(0, at)}${flipped}${payload.slice(at + 1)}.${signature}`;
    expect(['signature', 'malformed']).toContain(reasonOf(tampered));
  });

  it('a re-encoded payload with another sealed value but the original signature', () => {
    const [header, , signature] = valid.split('.');
    const otherSealed = payloadOf(codec.issue(randomUUID(), controlCode)).d;
    const token = `${header}.${b64url({ ...payloadOf(valid), d: otherSealed })}.${signature}`;
    expect(reasonOf(token)).toBe('signature');
  });

  it('a tampered signature', () => {
    const [header, payload, signature = ''] = valid.split('.');
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(reasonOf(`${header}.${payload}.${flipped}`)).toBe('signature');
  });

  it('a token issued under another encryption key (same JWT secret)', () => {
    const underB = createSiteTokenCodec({ jwtSecret, encryptionKey: keyB });
    // A wrong key almost always breaks the padding ('decrypt'); rarely it yields garbage ('payload').
    for (let i = 0; i < 20; i += 1) {
      expect(['decrypt', 'payload']).toContain(reasonOf(underB.issue(siteId, controlCode)));
    }
  });

  it.each([
    ['the signature cut short', () => valid.slice(0, -5), ['signature']],
    ['the signature dropped', () => valid.slice(0, valid.lastIndexOf('.') + 1), ['algorithm', 'signature']],
    ['the last segment and its dot dropped', () => valid.slice(0, valid.lastIndexOf('.')), ['malformed']],
    ['cut in half', () => valid.slice(0, Math.floor(valid.length / 2)), ['malformed']],
  ] as const)('a truncated token: %s', (_name, make, reasons) => {
    expect(reasons).toContain(reasonOf(make()));
  });

  it.each([
    ['an empty string', ''],
    ['plain words', 'not a token'],
    ['three dots', '...'],
    ['segments that are not JSON', 'abc.def.ghi'],
    ['a header that is a JSON array', `${b64url(['HS256'])}.${b64url({ v: 1 })}.c2ln`],
    [
      'a payload that is not JSON',
      `${b64url({ alg: 'HS256', typ: 'JWT' })}.${Buffer.from('hello').toString('base64url')}.c2ln`,
    ],
    ['a token with whitespace', ` ${valid}`],
    ['four segments', `${valid}.extra`],
    ['a huge token', `${valid.split('.')[0]}.${'A'.repeat(10_000)}.sig`],
  ])('garbage: %s', (_name, token) => {
    expect(reasonOf(token)).toBe('malformed');
  });

  // RFC 7519 wants the claims set to be a JSON object: anything else is not a JWT, even when signed.
  it.each([
    ['not JSON at all', () => jwt.sign('hello', jwtSecret, { algorithm: 'HS256' })],
    ['a JSON string', () => craft({ alg: 'HS256', typ: 'JWT' }, 'hello', { hash: 'sha256', secret: jwtSecret })],
    [
      'a JSON array',
      () => craft({ alg: 'HS256', typ: 'JWT' }, [1, validSealed], { hash: 'sha256', secret: jwtSecret }),
    ],
    ['JSON null', () => craft({ alg: 'HS256', typ: 'JWT' }, null, { hash: 'sha256', secret: jwtSecret })],
  ])('a signed payload that is %s', (_name, make) => {
    expect(reasonOf(make())).toBe('malformed');
  });

  it('a value that is not a string', () => {
    expect(reasonOf(undefined as unknown as string)).toBe('malformed');
    expect(reasonOf(42 as unknown as string)).toBe('malformed');
  });

  describe('a validly signed JWT whose payload is not ours', () => {
    const signed = (payload: string | object) => jwt.sign(payload, jwtSecret, { algorithm: 'HS256' });
    const sealedJson = (text: string) => seal(text, keyA);

    it.each([
      ['an unrelated payload', () => signed({ sub: 'user', admin: true })],
      ['version 2', () => signed({ v: 2, d: validSealed })],
      ['no d', () => signed({ v: 1 })],
      ['d not a string', () => signed({ v: 1, d: 42 })],
      ['an extra claim', () => signed({ v: 1, d: validSealed, sub: siteId })],
      ['an exp claim', () => signed({ v: 1, d: validSealed, exp: now + 3600 })],
      ['an expired exp claim', () => signed({ v: 1, d: validSealed, exp: now - 3600 })],
      ['an nbf claim in the future', () => signed({ v: 1, d: validSealed, nbf: now + 3600 })],
      [
        'a non-numeric iat',
        () =>
          craft(
            { alg: 'HS256', typ: 'JWT' },
            { v: 1, d: validSealed, iat: 'yesterday' },
            { hash: 'sha256', secret: jwtSecret },
          ),
      ],
      ['no iat', () => jwt.sign({ v: 1, d: validSealed }, jwtSecret, { algorithm: 'HS256', noTimestamp: true })],
      ['d without a dot', () => signed({ v: 1, d: 'abcdef' })],
      ['d with three parts', () => signed({ v: 1, d: `${validSealed}.x` })],
      ['d with a short IV', () => signed({ v: 1, d: `AAAA.${validSealed.split('.')[1]}` })],
      ['d with a ciphertext off the block size', () => signed({ v: 1, d: `${validSealed.split('.')[0]}.AAAA` })],
      ['d with non-base64url characters', () => signed({ v: 1, d: `${validSealed.split('.')[0]}.${'+'.repeat(22)}` })],
      ['plaintext not JSON', () => signed({ v: 1, d: sealedJson('hello') })],
      ['plaintext a JSON array', () => signed({ v: 1, d: sealedJson(JSON.stringify([siteId, controlCode])) })],
      [
        'plaintext with an extra key',
        () => signed({ v: 1, d: sealedJson(JSON.stringify({ s: siteId, c: controlCode, x: 1 })) }),
      ],
      [
        'plaintext with keys reordered',
        () => signed({ v: 1, d: sealedJson(JSON.stringify({ c: controlCode, s: siteId })) }),
      ],
      [
        'plaintext with whitespace',
        () => signed({ v: 1, d: sealedJson(JSON.stringify({ s: siteId, c: controlCode }, null, 1)) }),
      ],
      [
        'plaintext with a site id that is not a UUID',
        () => signed({ v: 1, d: sealedJson(JSON.stringify({ s: "1' OR '1'='1", c: controlCode })) }),
      ],
      [
        'plaintext with an empty control code',
        () => signed({ v: 1, d: sealedJson(JSON.stringify({ s: siteId, c: '' })) }),
      ],
      [
        'plaintext with a numeric control code',
        () => signed({ v: 1, d: sealedJson(JSON.stringify({ s: siteId, c: 12345 })) }),
      ],
    ])('%s', (_name, make) => {
      expect(reasonOf(make())).toBe('payload');
    });
  });

  it('never puts the token, a secret or a claim into an error', () => {
    // Checks every refusal collected above, plus a few of its own so it also stands alone.
    reasonOf('');
    reasonOf(createSiteTokenCodec({ jwtSecret, encryptionKey: keyB }).issue(siteId, controlCode));
    reasonOf(jwt.sign({ v: 1, d: validSealed }, jwtSecret, { algorithm: 'HS512' }));
    reasonOf(jwt.sign({ v: 1, d: validSealed }, 'other secret', { algorithm: 'HS256' }));
    const forbidden = [
      jwtSecret,
      keyA.toString('hex'),
      keyA.toString('base64'),
      keyA.toString('base64url'),
      controlCode,
      siteId,
      validSealed,
    ];
    for (const { token, error } of refusals) {
      const rendered = [
        String(error),
        (error as Error).stack ?? '',
        JSON.stringify(error),
        JSON.stringify(Object.getOwnPropertyDescriptors(error)),
      ].join('\n');
      expect(isSiteTokenError(error)).toBe(true);
      expect((error as Error).cause).toBeUndefined();
      const fromToken =
        typeof token === 'string' && token.length >= 8 ? [token, ...token.split('.').filter((s) => s.length >= 8)] : [];
      for (const secret of [...forbidden, ...fromToken]) {
        expect(rendered).not.toContain(secret);
      }
    }
  });
});

describe('verifySiteToken', () => {
  const site: SiteRecord & { name: string } = { id: siteId, controlCode, deletedAt: null, name: 'Example' };
  const lookupOf = (found: typeof site | null) => {
    const calls: string[] = [];
    const lookup = async (id: string) => {
      calls.push(id);
      return found;
    };
    return { calls, lookup };
  };

  it('accepts a valid token and returns the site it looked up', async () => {
    const { calls, lookup } = lookupOf(site);
    await expect(verifySiteToken(codec, valid, lookup)).resolves.toEqual({ ok: true, site });
    expect(calls).toEqual([siteId]);
  });

  it("answers 'rotated' once the control code has changed", async () => {
    const { lookup } = lookupOf({ ...site, controlCode: generateControlCode() });
    await expect(verifySiteToken(codec, valid, lookup)).resolves.toEqual({ ok: false, reason: 'rotated' });
  });

  it("answers 'rotated' for a control code of another length or a prefix of it", async () => {
    for (const stored of [`${controlCode}x`, controlCode.slice(0, -1), '']) {
      const { lookup } = lookupOf({ ...site, controlCode: stored });
      await expect(verifySiteToken(codec, valid, lookup)).resolves.toEqual({ ok: false, reason: 'rotated' });
    }
  });

  it("answers 'deleted_site' for a deleted site", async () => {
    const { lookup } = lookupOf({ ...site, deletedAt: new Date() });
    await expect(verifySiteToken(codec, valid, lookup)).resolves.toEqual({ ok: false, reason: 'deleted_site' });
  });

  it("answers 'unknown_site' when the site does not exist", async () => {
    const { lookup } = lookupOf(null);
    await expect(verifySiteToken(codec, valid, lookup)).resolves.toEqual({ ok: false, reason: 'unknown_site' });
  });

  it('passes the decode reason through and never looks up a site for a bad token', async () => {
    const { calls, lookup } = lookupOf(site);
    const other = createSiteTokenCodec({ jwtSecret: 'another secret', encryptionKey: keyA });
    await expect(verifySiteToken(codec, other.issue(siteId, controlCode), lookup)).resolves.toEqual({
      ok: false,
      reason: 'signature',
    });
    await expect(verifySiteToken(codec, '', lookup)).resolves.toEqual({ ok: false, reason: 'malformed' });
    expect(calls).toEqual([]);
  });

  it('checks the site id is a UUID before the lookup, even from a lenient codec', async () => {
    const { calls, lookup } = lookupOf(site);
    const lenient: SiteTokenCodec = {
      issue: () => 'x',
      decode: () => ({ siteId: "1'; DROP TABLE site;--", controlCode }),
    };
    await expect(verifySiteToken(lenient, 'x', lookup)).resolves.toEqual({ ok: false, reason: 'payload' });
    expect(calls).toEqual([]);
  });

  it('lets a lookup failure propagate: a database outage is not a bad token', async () => {
    const failing = async (): Promise<SiteRecord | null> => {
      throw new Error('connection refused');
    };
    await expect(verifySiteToken(codec, valid, failing)).rejects.toThrow('connection refused');
  });
});

describe('random codes', () => {
  it('generateControlCode: 32 random bytes, base64url', () => {
    const codes = new Set(Array.from({ length: 200 }, generateControlCode));
    expect(codes.size).toBe(200);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(code, 'base64url')).toHaveLength(32);
    }
  });

  it('generateFormCode: 24 URL-safe characters from 18 random bytes', () => {
    const codes = new Set(Array.from({ length: 1000 }, generateFormCode));
    expect(codes.size).toBe(1000);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(encodeURIComponent(code)).toBe(code);
    }
  });
});

describe('parseEncryptionKey', () => {
  const key = randomBytes(32);

  it.each([
    ['lower-case hex', key.toString('hex')],
    ['upper-case hex', key.toString('hex').toUpperCase()],
    ['padded base64', key.toString('base64')],
    ['unpadded base64', key.toString('base64').replace(/=+$/, '')],
    ['base64url', key.toString('base64url')],
  ])('accepts %s', (_name, value) => {
    expect(parseEncryptionKey(value).equals(key)).toBe(true);
  });

  it('reads 64 hex characters as hex, not as 48 bytes of base64', () => {
    expect(parseEncryptionKey('ab'.repeat(32))).toEqual(Buffer.alloc(32, 0xab));
  });

  it('gives a codec key that issues tokens', () => {
    const fromEnv = createSiteTokenCodec({ jwtSecret, encryptionKey: parseEncryptionKey(keyA.toString('hex')) });
    expect(fromEnv.decode(valid)).toEqual({ siteId, controlCode });
  });

  it.each([
    ['empty', ''],
    ['62 hex characters', randomBytes(31).toString('hex')],
    ['66 hex characters', randomBytes(33).toString('hex')],
    ['base64 of 16 bytes', randomBytes(16).toString('base64')],
    ['base64 of 31 bytes', randomBytes(31).toString('base64')],
    ['base64 of 33 bytes', randomBytes(33).toString('base64')],
    ['base64 of 48 bytes', randomBytes(48).toString('base64')],
    ['hex with a stray character', `${key.toString('hex').slice(0, 63)}g`],
    ['base64 with a space inside', `${key.toString('base64').slice(0, 20)} ${key.toString('base64').slice(20)}`],
    ['base64 with a trailing newline', `${key.toString('base64')}\n`],
    ['base64 with wrong padding', `${key.toString('base64').replace(/=+$/, '')}==`],
    ['mixed base64 alphabets', `${'+'.repeat(21)}${'_'.repeat(22)}`],
    ['a passphrase', 'correct horse battery staple, a long one!'],
  ])('refuses %s, naming the variable and not the value', (_name, value) => {
    let message = '';
    try {
      parseEncryptionKey(value);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^TOKEN_ENCRYPTION_KEY must be a 32-byte key/);
    if (value.trim().length > 0) {
      expect(message).not.toContain(value.trim());
    }
  });

  it('names another variable when asked to', () => {
    expect(() => parseEncryptionKey('short', 'OTHER_KEY')).toThrow(/^OTHER_KEY /);
  });
});
