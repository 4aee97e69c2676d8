import { contentHash, contentSpamReason } from './content-rules.js';

const OFF = { honeypotFields: null, maxLinks: null, blockedWords: null };

describe('content rules', () => {
  it('judges nothing when every rule is off', async () => {
    expect(await contentSpamReason(OFF, { website: 'x', m: 'http://a http://b casino' }, ['website'])).toBeUndefined();
  });

  it('honeypot: empty strings, null, empty lists and objects are not filled; anything else and files are', async () => {
    const rules = { ...OFF, honeypotFields: ['hp'] };
    for (const value of ['', null, [], ['', null], undefined, {}, { a: '' }, { a: [{}] }]) {
      expect(await contentSpamReason(rules, { hp: value }, [])).toBeUndefined();
    }
    for (const value of [' ', 'x', 0, false, ['', 'x'], { a: 1 }]) {
      expect(await contentSpamReason(rules, { hp: value }, [])).toBe('honeypot');
    }
    expect(await contentSpamReason(rules, {}, ['hp'])).toBe('honeypot');
    expect(await contentSpamReason(rules, {}, ['hp[cv]'])).toBe('honeypot');
    expect(await contentSpamReason(rules, {}, ['hpx'])).toBeUndefined();
  });

  it('honeypot: a bracket name is read whole and along its brackets, as the parsers nest it', async () => {
    const rules = { ...OFF, honeypotFields: ['contact[website]', 'tags[]', 'list[1]', 'odd[]x'] };
    const spam: Record<string, unknown>[] = [
      { 'contact[website]': 'x' },
      { contact: { website: 'x' } },
      { tags: ['', 'x'] },
      { list: ['', 'x'] },
      { 'odd[]x': 'x' },
    ];
    for (const fields of spam) {
      expect([fields, await contentSpamReason(rules, fields, [])]).toEqual([fields, 'honeypot']);
    }
    const clean: Record<string, unknown>[] = [
      { contact: { website: '', phone: '5' } },
      { contact: 'x' },
      { list: ['x', ''] },
      { odd: ['x'] },
      { tags: [] },
    ];
    for (const fields of clean) {
      expect([fields, await contentSpamReason(rules, fields, [])]).toEqual([fields, undefined]);
    }
  });

  it('links: counts http(s) and www. across nested values, not bare domains', async () => {
    const rules = { ...OFF, maxLinks: 1 };
    expect(await contentSpamReason(rules, { a: 'example.com and https://x.example' }, [])).toBeUndefined();
    expect(await contentSpamReason(rules, { a: ['HTTPS://x.example', { b: 'www.y.example' }] }, [])).toBe('links');
    expect(await contentSpamReason({ ...OFF, maxLinks: 0 }, { a: 'http://x' }, [])).toBe('links');
  });

  it('blocked words: whole words, case-insensitive, Unicode letters as word characters, metacharacters literal', async () => {
    const rules = { ...OFF, blockedWords: ['c++', 'free money', 'café'] };
    expect(await contentSpamReason(rules, { m: 'learn C++ today' }, [])).toBe('blocked_word');
    expect(await contentSpamReason(rules, { m: 'FREE\tMONEY!' }, [])).toBe('blocked_word');
    expect(await contentSpamReason(rules, { m: 'au CAFÉ' }, [])).toBe('blocked_word');
    expect(await contentSpamReason(rules, { m: 'cafés, c+, freemoney, free moneys' }, [])).toBeUndefined();
    expect(await contentSpamReason({ ...OFF, blockedWords: ['a.b'] }, { m: 'axb' }, [])).toBeUndefined();
  });

  it('hashes content independently of key order, and files by field, name, type and bytes, and the verdict', () => {
    const file = { field: 'f', name: 'a.txt', mimeType: 'text/plain', sha256: 'a'.repeat(64) };
    const hash = (fields: Record<string, unknown>, files = [file], spamReason?: 'honeypot') =>
      contentHash({ fields, files, spamReason });
    expect(hash({ a: 1, b: { c: [1, 2] } })).toBe(hash({ b: { c: [1, 2] }, a: 1 }));
    expect(hash({ a: [1, 2] }, [])).not.toBe(hash({ a: [2, 1] }, []));
    for (const other of [{ field: 'g' }, { name: 'b.txt' }, { mimeType: 'text/csv' }, { sha256: 'b'.repeat(64) }]) {
      expect(hash({ a: 1 }, [{ ...file, ...other }])).not.toBe(hash({ a: 1 }));
    }
    expect(hash({ a: 1 }, [file], 'honeypot')).not.toBe(hash({ a: 1 }));
  });
});
