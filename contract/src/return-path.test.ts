// The one decision of where signing in may lead (the admin API's single sign-on start route and the
// console's sign-in page): checked case by case and as properties over paths built from the pieces
// that have led elsewhere (dot-segments, backslashes, percent-encodings, doubled slashes, tabs and
// newlines), each result then read by the WHATWG URL parser as a browser reads a Location header.
import fc from 'fast-check';
import { AFTER_SIGN_IN, safeReturnPath } from './return-path.js';

const ORIGINS = ['https://admin.example.com', 'http://127.0.0.1:4000', 'https://intake.example.org:8443'];

/** Where a browser on `origin` goes when sent to `path` (a Location header, a link, `navigate`). */
const resolved = (path: string, origin: string) => new URL(path, origin);

describe('safeReturnPath', () => {
  it.each([
    '/sites',
    '/api-tokens',
    '/sites/1/forms/2/settings?tab=a#b',
    '/sites/1/../2/forms',
    '/search?q=%2F%2Fevil.example',
    '/a%2F%2Fevil.example',
  ])('follows %j, a path of this origin', (next) => {
    const expected = resolved(next, ORIGINS[0]!);
    expect(safeReturnPath(next)).toBe(`${expected.pathname}${expected.search}${expected.hash}`);
  });

  it.each([
    null,
    undefined,
    42,
    '',
    'sites',
    'https://evil.example/x',
    '//evil.example/x',
    '///evil.example/x',
    '/\\evil.example/x',
    '\\/evil.example/x',
    '/\t/evil.example/x',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/.//evil.example/x',
    '/./\\evil.example/x',
    '/x/..//evil.example/x',
    '/%2e//evil.example/x',
    '/%2E%2E//evil.example/x',
    '/.%2e//evil.example',
    '/././/evil.example',
    'javascript:alert(1)',
    '/sign-in',
    '/sign-in?next=/x',
    '/sign-in/',
    '/auth/oidc/start',
  ])('goes to the sites instead of %j', (next) => {
    expect(safeReturnPath(next)).toBe(AFTER_SIGN_IN);
  });

  it('goes to the sites instead of a path over 2,000 characters', () => {
    expect(safeReturnPath(`/${'a'.repeat(1999)}`)).toBe(`/${'a'.repeat(1999)}`);
    expect(safeReturnPath(`/${'a'.repeat(2000)}`)).toBe(AFTER_SIGN_IN);
  });

  const piece = fc.constantFrom(
    '/',
    '//',
    '\\',
    '.',
    '..',
    '%2e',
    '%2E',
    '%2f',
    '%5c',
    '%09',
    '\t',
    '\n',
    '\r',
    ' ',
    '@',
    ':',
    '?',
    '#',
    'evil.example',
    'sites',
    'x',
    'http:',
    'javascript:',
  );
  const hostile = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
  const maybeSlashed = fc.oneof(
    hostile,
    hostile.map((text) => `/${text}`),
  );

  it('answers only a path that stays on the origin, whatever the origin, and means what it meant', () => {
    fc.assert(
      fc.property(maybeSlashed, (next) => {
        const path = safeReturnPath(next);
        expect(path.startsWith('/')).toBe(true);
        expect(path.startsWith('//')).toBe(false);
        expect(path.startsWith('/\\')).toBe(false);
        for (const origin of ORIGINS) {
          expect(resolved(path, origin).origin).toBe(origin);
          if (path !== AFTER_SIGN_IN) {
            // The browser reads the answer exactly as it would have read what was asked for.
            expect(resolved(path, origin).href).toBe(resolved(next, origin).href);
          }
        }
        // Deciding again changes nothing.
        expect(safeReturnPath(path)).toBe(path);
      }),
      { numRuns: 5000 },
    );
  });

  it('follows every ordinary console path unchanged', () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    const ordinary = fc
      .tuple(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.option(segment), fc.option(segment))
      .map(([segments, query, hash]) => `/${segments.join('/')}${query ? `?q=${query}` : ''}${hash ? `#${hash}` : ''}`)
      .filter((path) => !path.startsWith('/sign-in') && !path.startsWith('/auth/'));
    fc.assert(fc.property(ordinary, (next) => expect(safeReturnPath(next)).toBe(next)));
  });
});
