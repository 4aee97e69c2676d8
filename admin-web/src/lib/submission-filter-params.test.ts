import { describe, expect, it } from '@jest/globals';
import { isFiltered, readInboxFilter, toFilterVariables, writeInboxFilter } from './submission-filter-params.js';

describe('the inbox filter in the query string', () => {
  it('reads what it writes, keeping other parameters and leaving out empty parts', () => {
    const filter = { query: 'élodie & co', from: '2026-11-01', to: '2026-11-30', hasFiles: true };
    const written = writeInboxFilter(new URLSearchParams('view=x&q=old'), filter);
    expect(written.get('view')).toBe('x');
    expect(readInboxFilter(written)).toEqual(filter);
    const cleared = writeInboxFilter(written, { query: ' ', from: '', to: '', hasFiles: false });
    expect(cleared.toString()).toBe('view=x');
    expect(isFiltered(readInboxFilter(cleared))).toBe(false);
  });

  it('ignores days that are not days', () => {
    expect(readInboxFilter(new URLSearchParams('from=2026-02-30&to=yesterday&files=yes'))).toEqual({
      query: '',
      from: '',
      to: '',
      hasFiles: false,
    });
  });
});

describe('toFilterVariables', () => {
  it('includes both days, in the local time zone', () => {
    const variables = toFilterVariables({ query: '', from: '2026-11-01', to: '2026-11-01', hasFiles: false });
    expect(variables).toEqual({
      createdAfter: new Date(2026, 10, 1).toISOString(),
      createdBefore: new Date(2026, 10, 2).toISOString(),
    });
  });

  it('sends a query of three characters or more, and hasFiles only when asked', () => {
    expect(toFilterVariables({ query: 'ab', from: '', to: '', hasFiles: false })).toEqual({});
    expect(toFilterVariables({ query: 'abc', from: '', to: '', hasFiles: true })).toEqual({
      query: 'abc',
      hasFiles: true,
    });
    expect(toFilterVariables({ query: 'Zoé', from: '', to: '2026-12-31', hasFiles: false })).toEqual({
      query: 'Zoé',
      createdBefore: new Date(2027, 0, 1).toISOString(),
    });
  });
});
