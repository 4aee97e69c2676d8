import { describe, expect, it } from '@jest/globals';
import { columnKeys, compactValue } from './submission-values.js';

describe('compactValue', () => {
  it('decodes stored text once and keeps it on one line', () => {
    expect(compactValue('Tom &amp; Jerry')).toBe('Tom & Jerry');
    expect(compactValue('&amp;lt;b&amp;gt;')).toBe('&lt;b&gt;');
    expect(compactValue('  first line\r\nsecond\tline  ')).toBe('first line second line');
  });

  it('summarises lists and objects, their keys and values decoded', () => {
    expect(compactValue(['a', 'b &amp; c', 3])).toBe('a, b & c, 3');
    expect(compactValue({ 'R&amp;D': { city: 'Paris' }, n: null })).toBe('{ R&D: { city: Paris }, n: — }');
  });

  it('shows other values as text and absent ones as a dash', () => {
    expect(compactValue(42)).toBe('42');
    expect(compactValue(false)).toBe('false');
    expect(compactValue(null)).toBe('—');
    expect(compactValue(undefined)).toBe('—');
  });

  it('cuts long values with an ellipsis', () => {
    const cut = compactValue('x'.repeat(200));
    expect(cut).toHaveLength(80);
    expect(cut.endsWith('…')).toBe(true);
    expect(compactValue('abcdef', 4)).toBe('abc…');
  });
});

describe('columnKeys', () => {
  it('takes the top-level keys in the order they first appear, at most the limit', () => {
    const rows = [{ name: 'a', email: 'b' }, { name: 'c', phone: 'd', company: 'e' }, { city: 'f' }];
    expect(columnKeys(rows)).toEqual(['name', 'email', 'phone', 'company']);
    expect(columnKeys(rows, 2)).toEqual(['name', 'email']);
    expect(columnKeys(rows, 10)).toEqual(['name', 'email', 'phone', 'company', 'city']);
    expect(columnKeys([])).toEqual([]);
  });
});
