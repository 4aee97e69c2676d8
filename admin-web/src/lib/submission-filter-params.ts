// The inbox's filter lives in the page's query string (`?q=…&from=2026-11-01&to=2026-11-30&files=1`,
// and the inbox state: `status=archived&mine=1&unread=1`)
// so a reload or a shared link shows the same list. This turns those parameters into the API's
// SubmissionFilterInput: the dates are days in the browser's time zone, `from` from its first instant
// (createdAfter is inclusive) and `to` up to the next day's first instant (createdBefore is exclusive),
// so both days are included.
import { SEARCH_QUERY_MIN_LENGTH } from '@intake/contract';

export interface InboxFilter {
  /** The search text, trimmed; '' for none. */
  query: string;
  /** `YYYY-MM-DD` or ''. */
  from: string;
  /** `YYYY-MM-DD` or ''. */
  to: string;
  hasFiles: boolean;
  /** One status, or '' for the default view (every status but archived). */
  status: SubmissionStatusParam;
  /** Assigned to the signed-in member. */
  mine: boolean;
  /** Not read by the signed-in member. */
  unread: boolean;
}

export type SubmissionStatusParam = '' | 'new' | 'open' | 'done' | 'archived';
const STATUSES: readonly SubmissionStatusParam[] = ['new', 'open', 'done', 'archived'];

/** No filter at all: the default view. */
export const NO_INBOX_FILTER: InboxFilter = {
  query: '',
  from: '',
  to: '',
  hasFiles: false,
  status: '',
  mine: false,
  unread: false,
};

export interface SubmissionStateVariables {
  status?: Exclude<SubmissionStatusParam, ''>[];
  mine?: boolean;
  unread?: boolean;
}

export interface SubmissionFilterVariables {
  query?: string;
  createdAfter?: string;
  createdBefore?: string;
  hasFiles?: boolean;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a `YYYY-MM-DD` day, `days` later; null when it is not a real day. */
function localMidnight(day: string, days = 0): Date | null {
  const match = DAY.exec(day);
  if (match === null) {
    return null;
  }
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const midnight = new Date(year, month - 1, date);
  if (midnight.getFullYear() !== year || midnight.getMonth() !== month - 1 || midnight.getDate() !== date) {
    return null;
  }
  midnight.setDate(midnight.getDate() + days);
  return midnight;
}

export function readInboxFilter(params: URLSearchParams): InboxFilter {
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return localMidnight(value) === null ? '' : value;
  };
  return {
    query: (params.get('q') ?? '').trim(),
    from: day('from'),
    to: day('to'),
    hasFiles: params.get('files') === '1',
    status: STATUSES.find((status) => status === params.get('status')) ?? '',
    mine: params.get('mine') === '1',
    unread: params.get('unread') === '1',
  };
}

/** `params` with the filter's parameters replaced (other parameters kept); empty parts are left out. */
export function writeInboxFilter(params: URLSearchParams, filter: InboxFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string) => (value === '' ? next.delete(name) : next.set(name, value));
  set('q', filter.query.trim());
  set('from', filter.from);
  set('to', filter.to);
  set('files', filter.hasFiles ? '1' : '');
  set('status', filter.status);
  set('mine', filter.mine ? '1' : '');
  set('unread', filter.unread ? '1' : '');
  return next;
}

export function isFiltered(filter: InboxFilter): boolean {
  return (
    filter.query !== '' ||
    filter.from !== '' ||
    filter.to !== '' ||
    filter.hasFiles ||
    filter.status !== '' ||
    filter.mine ||
    filter.unread
  );
}

/** The API's SubmissionStateFilterInput for `filter`; null for the default view. */
export function toStateVariables(filter: InboxFilter): SubmissionStateVariables | null {
  if (filter.status === '' && !filter.mine && !filter.unread) {
    return null;
  }
  return {
    ...(filter.status === '' ? {} : { status: [filter.status] }),
    ...(filter.mine ? { mine: true } : {}),
    ...(filter.unread ? { unread: true } : {}),
  };
}

/** The API's filter for `filter`; a query too short to send is left out (the search box says why). */
export function toFilterVariables(filter: InboxFilter): SubmissionFilterVariables {
  const variables: SubmissionFilterVariables = {};
  if ([...filter.query].length >= SEARCH_QUERY_MIN_LENGTH) {
    variables.query = filter.query;
  }
  const from = localMidnight(filter.from);
  if (from !== null) {
    variables.createdAfter = from.toISOString();
  }
  const dayAfterTo = localMidnight(filter.to, 1);
  if (dayAfterTo !== null) {
    variables.createdBefore = dayAfterTo.toISOString();
  }
  if (filter.hasFiles) {
    variables.hasFiles = true;
  }
  return variables;
}
