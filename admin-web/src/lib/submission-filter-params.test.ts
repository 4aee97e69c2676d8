import { describe, expect, it } from '@jest/globals';
import {
  isFiltered,
  NO_INBOX_FILTER,
  readInboxFilter,
  toFilterVariables,
  toStateVariables,
  writeInboxFilter,
} from './submission-filter-params.js';

describe('the inbox filter in the query string', () => {
  it('reads what it writes, keeping other parameters and leaving out empty parts', () => {
    const filter = {
      ...NO_INBOX_FILTER,
      query: 'élodie & co',
      from: '2026-11-01',
      to: '2026-11-30',
      hasFiles: true,
      status: 'archived' as const,
      mine: true,
      unread: true,
    };
    const written = writeInboxFilter(new URLSearchParams('view=x&q=old'), filter);
    expect(written.get('view')).toBe('x');
    expect(readInboxFilter(written)).toEqual(filter);
    const cleared = writeInboxFilter(written, { ...NO_INBOX_FILTER, query: ' ' });
    expect(cleared.toString()).toBe('view=x');
    expect(isFiltered(readInboxFilter(cleared))).toBe(false);
  });

  it('ignores days that are not days', () => {
    expect(readInboxFilter(new URLSearchParams('from=2026-02-30&to=yesterday&files=yes&status=gone'))).toEqual(
      NO_INBOX_FILTER,
    );
  });
});

describe('toFilterVariables', () => {
  it('includes both days, in the local time zone', () => {
    const variables = toFilterVariables({
      ...NO_INBOX_FILTER,
      query: '',
      from: '2026-11-01',
      to: '2026-11-01',
      hasFiles: false,
    });
    expect(variables).toEqual({
      createdAfter: new Date(2026, 10, 1).toISOString(),
      createdBefore: new Date(2026, 10, 2).toISOString(),
    });
  });

  it('sends a query of three characters or more, and hasFiles only when asked', () => {
    expect(toFilterVariables({ ...NO_INBOX_FILTER, query: 'ab', from: '', to: '', hasFiles: false })).toEqual({});
    expect(toFilterVariables({ ...NO_INBOX_FILTER, query: 'abc', from: '', to: '', hasFiles: true })).toEqual({
      query: 'abc',
      hasFiles: true,
    });
    expect(
      toFilterVariables({ ...NO_INBOX_FILTER, query: 'Zoé', from: '', to: '2026-12-31', hasFiles: false }),
    ).toEqual({
      query: 'Zoé',
      createdBefore: new Date(2027, 0, 1).toISOString(),
    });
  });
});

describe('toStateVariables', () => {
  it('sends nothing for the default view, and the status, mine and unread when chosen', () => {
    expect(toStateVariables(NO_INBOX_FILTER)).toBeNull();
    expect(toStateVariables({ ...NO_INBOX_FILTER, status: 'archived' })).toEqual({ status: ['archived'] });
    expect(toStateVariables({ ...NO_INBOX_FILTER, mine: true, unread: true })).toEqual({ mine: true, unread: true });
  });
});
