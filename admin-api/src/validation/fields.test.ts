// The field checks of the admin inputs (fields.ts, through parseInput), without a database or a server.
import { domain, mimeTypes, name } from './fields.js';
import { parseInput } from './parse-input.js';

const parseDomain = (value: string | null, field: string) => parseInput(domain, value, field);
const parseName = (value: string, field: string) => parseInput(name, value, field);
const parseMimeTypes = (value: string[] | null, field: string) => parseInput(mimeTypes, value, field);

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
