// The pure pieces of the admin API, without a database or a server.
import 'reflect-metadata';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { parse, validate, specifiedRules } from 'graphql';
import Koa from 'koa';
import { createAdminTokens } from './auth/admin-token.js';
import { generateApiToken, hashApiToken, looksLikeApiToken } from './auth/api-token.js';
import { createAttemptLimiter } from './auth/attempt-limiter.js';
import { bearerToken } from './auth/authenticate.js';
import { isPublicOperation } from './auth/auth-plugin.js';
import { downloadNames, setAttachment, storedNameAsSent } from './files/content-disposition.js';
import { createDownloadLinks } from './files/download-link.js';
import { decodeCursor, encodeCursor } from './resolvers/cursor.js';
import { buildAdminSchema } from './schema/build-schema.js';
import { aliasLimitRule, costLimitRule, depthLimitRule, rootFieldLimitRule } from './schema/limits.js';
import { domain, mimeTypes, name } from './validation/fields.js';
import { parseInput } from './validation/parse-input.js';

const parseDomain = (value: string | null, field: string) => parseInput(domain, value, field);
const parseName = (value: string, field: string) => parseInput(name, value, field);
const parseMimeTypes = (value: string[] | null, field: string) => parseInput(mimeTypes, value, field);

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('validation', () => {
  it('normalises good domains and refuses URLs, ports, addresses and bad labels', () => {
    expect(parseDomain(' WWW.Example.COM ', 'd')).toBe('www.example.com');
    expect(parseDomain('münchen.de', 'd')).toBe('xn--mnchen-3ya.de');
    expect(parseDomain('', 'd')).toBeNull();
    expect(parseDomain(null, 'd')).toBeNull();
    for (const bad of [
      'http://x/y',
      'x.com/',
      'x.com:80',
      'a@b.com',
      '[::1]',
      '10.0.0.1',
      'a..b',
      'a_b.com',
      '-a.com',
      'a-.com',
      `${'a'.repeat(64)}.com`,
      'a b.com',
      'x.com?q',
      'x.com#f',
    ]) {
      expect(() => parseDomain(bad, 'input.domain')).toThrow(/^input\.domain must be a host name/);
    }
  });

  it('counts name lengths in characters and refuses control characters', () => {
    expect(parseName('😀'.repeat(200), 'n')).toHaveLength(400);
    expect(() => parseName('😀'.repeat(201), 'n')).toThrow(/between 1 and 200/);
    expect(() => parseName('a\u0000b', 'n')).toThrow(/control/);
    expect(() => parseName('\ud800', 'n')).toThrow(/control/);
  });

  it('accepts only known MIME types, lower-cased and deduplicated', () => {
    expect(parseMimeTypes(['Image/PNG', 'image/png', 'text/plain'], 'm')).toEqual(['image/png', 'text/plain']);
    expect(() => parseMimeTypes(['image/svg+xml'], 'm')).toThrow(/unknown type/);
    expect(parseMimeTypes(null, 'm')).toBeNull();
  });
});

describe('tokens and links', () => {
  const config = { jwtSecret: 'a-jwt-secret-for-tests-only-0123456789', adminTokenTtlSeconds: 600 };

  it('admin tokens verify, expire and are bound to the derived key', () => {
    const tokens = createAdminTokens(config);
    const changedAt = new Date('2026-01-01T00:00:00.123Z');
    const { token, expiresAt } = tokens.issue(ID, changedAt);
    expect(tokens.verify(token)).toEqual({ adminId: ID, passwordVersion: changedAt.getTime() });
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

  it('download links verify only for their file, signature and time', () => {
    const links = createDownloadLinks({
      jwtSecret: config.jwtSecret,
      ttlSeconds: 300,
      publicOrigin: () => 'http://127.0.0.1:4000/',
    });
    const url = new URL(links.urlFor(ID));
    expect(url.origin + url.pathname).toBe(`http://127.0.0.1:4000/files/${ID}`);
    const expires = url.searchParams.get('expires');
    const sig = url.searchParams.get('sig');
    expect(links.verify(ID, expires, sig)).toBe(true);
    expect(links.verify(ID, expires, sig, new Date(Date.now() + 301_000))).toBe(false);
    expect(links.verify(ID.replace('0f', '1f'), expires, sig)).toBe(false);
    expect(links.verify(ID, String(Number(expires) + 1), sig)).toBe(false);
    expect(links.verify(ID, [expires], sig)).toBe(false);
    expect(links.verify(ID, expires, `${sig}=`)).toBe(false);
  });

  it('cursors round-trip and refuse anything else', () => {
    const cursor = { createdAt: new Date('2026-02-03T04:05:06.789Z'), id: ID };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor('')).toBeNull();
    expect(decodeCursor(Buffer.from(`123:${ID}x`).toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from(`abc:${ID}`).toString('base64url'))).toBeNull();
  });
});

describe('content disposition', () => {
  /** The header a download of a file stored under `storedName` gets, through a real Koa context. */
  const header = (storedName: string): string => {
    const request = new IncomingMessage(new Socket());
    const ctx = new Koa().createContext(request, new ServerResponse(request));
    setAttachment(ctx, storedName);
    return ctx.response.get('Content-Disposition');
  };

  it('gives an ASCII fallback that cannot break the header, and the exact name in RFC 5987 form', () => {
    // A name that is its own safe fallback needs no `filename*`.
    expect(header('report.pdf')).toBe('attachment; filename="report.pdf"');
    expect(header('a"b\\c%d\r\ne.txt')).toBe(
      `attachment; filename="a_b_c_d__e.txt"; filename*=UTF-8''a%22b%5Cc%25d%0D%0Ae.txt`,
    );
    expect(header("l'été (1)*.txt")).toBe(
      `attachment; filename="l'ete (1)*.txt"; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%281%29%2A.txt`,
    );
    expect(header('写真.png')).toBe(`attachment; filename="__.png"; filename*=UTF-8''%E5%86%99%E7%9C%9F.png`);
    expect(header('')).toBe('attachment; filename="download"');
    expect(header('\ud800x')).toMatch(/filename\*=UTF-8''%EF%BF%BDx$/);
    expect(downloadNames('a\u0000b.pdf')).toEqual({ name: 'a\u0000b.pdf', fallback: 'a_b.pdf' });
  });

  it('saves a download under the name as sent: the stored, escaped name decoded once', () => {
    expect(storedNameAsSent('Terms &amp; Conditions.pdf')).toBe('Terms & Conditions.pdf');
    expect(storedNameAsSent('&lt;b&gt; &quot;x&quot; O&#39;Brien.pdf')).toBe('<b> "x" O\'Brien.pdf');
    expect(storedNameAsSent('a&amp;lt;b.pdf')).toBe('a&lt;b.pdf');
    expect(header('O&#39;Brien.pdf')).toBe(`attachment; filename="O'Brien.pdf"`);
  });
});

describe('attempt limiter', () => {
  const limiter = () =>
    createAttemptLimiter({ limits: { a: 2, b: 5, c: 1 }, windowSeconds: 1, redisKeyPrefix: 'unused' });

  it('counts attempts per window, refuses at the limit and resets', async () => {
    const attempts = limiter();
    const a = [{ limit: 'a', key: 'k' }] as const;
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    expect(await attempts.consume(a)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // Another key of the same limit has its own count.
    expect(await attempts.consume([{ limit: 'a', key: 'other' }])).toEqual({ allowed: true });
    await attempts.reset(a[0]);
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    await attempts.release(a[0]);
    expect(await attempts.consume(a)).toEqual({ allowed: true });
    // A refused attempt counts against no key.
    expect(await attempts.consume([{ limit: 'b', key: 'k' }, ...a])).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(await attempts.consume([{ limit: 'c', key: 'k' }])).toEqual({ allowed: true });
    expect(await attempts.consume([{ limit: 'b', key: 'k' }])).toEqual({ allowed: true });
  });

  it('starts a fresh count when the window ends, and gives back nothing past it', async () => {
    const attempts = limiter();
    const c = { limit: 'c', key: 'k' } as const;
    expect(await attempts.consume([c])).toEqual({ allowed: true });
    expect(await attempts.consume([c])).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Releasing an ended window must not leave a credit behind.
    await attempts.release(c);
    expect(await attempts.consume([c])).toEqual({ allowed: true });
    expect(await attempts.consume([c])).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});

describe('operation rules', () => {
  const operation = (source: string) => {
    const document = parse(source);
    const definition = document.definitions.find((entry) => entry.kind === 'OperationDefinition');
    return isPublicOperation(definition as never, document);
  };

  it('only a login mutation is public', () => {
    expect(operation('mutation { login(email: "a", password: "b") { token } }')).toBe(true);
    expect(operation('mutation { __typename login(email: "a", password: "b") { token } }')).toBe(true);
    expect(operation('mutation { ...F } fragment F on Mutation { login(email: "a", password: "b") { token } }')).toBe(
      true,
    );
    expect(operation('mutation { login(email: "a", password: "b") { token } deleteSite(id: "x") }')).toBe(false);
    expect(operation('mutation { ... on Mutation { deleteSite(id: "x") } }')).toBe(false);
    expect(operation('query { __typename }')).toBe(false);
    expect(operation('query login { sites { id } }')).toBe(false);
  });

  it('depth and cost rules count through fragments without blowing up', async () => {
    const schema = await buildAdminSchema();
    const check = (source: string) =>
      validate(schema, parse(source), [...specifiedRules, depthLimitRule(15), costLimitRule(1000)]).map(
        (error) => error.message,
      );
    // Each fragment spreads the next twice: 2^40 paths, yet both rules finish at once (memoised).
    const fragments = Array.from(
      { length: 40 },
      (_, index) => `fragment F${index} on Query { a${index}: sites { id } ...F${index + 1} ...F${index + 1} }`,
    ).join('\n');
    const wide = `query { ...F0 }\n${fragments.replaceAll('...F40 ...F40', '')}`;
    const started = Date.now();
    expect(check(wide)).toEqual(['Query cost is over the limit of 1000']);
    expect(validate(schema, parse(wide), [depthLimitRule(15)])).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(check(`{ submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } }`)).toEqual([]);
    expect(
      check(
        `{ a: submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } b: submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } c: submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } d: submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } }`,
      ),
    ).toEqual(['Query cost is over the limit of 1000']);
  });

  it('charges every root field, even one returning a scalar', async () => {
    const schema = await buildAdminSchema();
    const mutations = (count: number) =>
      `mutation { ${Array.from({ length: count }, (_, index) => `d${index}: deleteForm(id: "${ID}")`).join(' ')} }`;
    expect(validate(schema, parse(mutations(1000)), [costLimitRule(1000)])).toEqual([]);
    expect(validate(schema, parse(mutations(1001)), [costLimitRule(1000)]).map((error) => error.message)).toEqual([
      'Query cost is over the limit of 1000',
    ]);
  });

  it('counts aliases and root fields through fragments, memoised', async () => {
    const schema = await buildAdminSchema();
    const check = (source: string) =>
      validate(schema, parse(source), [aliasLimitRule(50), rootFieldLimitRule(25)]).map((error) => error.message);
    const fragments = Array.from(
      { length: 40 },
      (_, index) => `fragment F${index} on Query { a${index}: sites { id } ...F${index + 1} ...F${index + 1} }`,
    ).join('\n');
    const wide = `query { ...F0 }\n${fragments.replaceAll('...F40 ...F40', '')}`;
    const started = Date.now();
    expect(check(wide)).toEqual(['Query has more than 50 aliases', 'Query has more than 25 root fields']);
    expect(Date.now() - started).toBeLessThan(2000);
    const roots = (count: number) => `{ ${Array.from({ length: count }, () => '__typename').join(' ')} }`;
    expect(check(roots(25))).toEqual([]);
    expect(check('{ ... on Query { sites { id } } ...R } fragment R on Query { __typename }')).toEqual([]);
    // `__typename` aliases count like any other (graphql-armor lets them through by default).
    const typenames = `{ sites { ${Array.from({ length: 51 }, (_, index) => `t${index}: __typename`).join(' ')} } }`;
    expect(check(typenames)).toEqual(['Query has more than 50 aliases']);
  });

  it('counts fields as depth levels, not the fragments that group them', async () => {
    const schema = await buildAdminSchema();
    const check = (source: string) =>
      validate(schema, parse(source), [depthLimitRule(2)]).map((error) => error.message);
    expect(check('{ ...F } fragment F on Query { ... on Query { sites { id } } }')).toEqual([]);
    expect(check('{ ...F } fragment F on Query { sites { forms { id } } }')).toEqual([
      'Query is nested deeper than 2 levels',
    ]);
    expect(check('{ __schema { types { name } } }')).toEqual(['Query is nested deeper than 2 levels']);
  });
});
