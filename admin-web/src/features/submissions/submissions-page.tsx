// A form's inbox: its submissions newest first, a page at a time with the API's cursors, columns from
// the fields the page holds, and new submissions shown as they come (the page polls while visible).
// A search box, a date range, "Has files", a status, "Assigned to me" and "Unread" narrow the list and
// its count; they live in the URL. Archived submissions show only when their status is chosen.
import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { QueryStatus } from '../../components/query-status';
import { SubmissionsInboxDocument } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { columnKeys } from '../../lib/submission-values';
import {
  isFiltered,
  readInboxFilter,
  toFilterVariables,
  toStateVariables,
  writeInboxFilter,
  type InboxFilter,
} from '../../lib/submission-filter-params';
import { isTooShort, SubmissionFilters } from './submission-filters';
import { SubmissionListHeader } from './submission-list-header';
import { CountAllButton, countText } from './count-text';
import { useArrivalsSince, useLivePageAndCount, useSubmissionCount } from './use-submission-count';
import { useCursorPages } from '../../lib/use-cursor-pages';
import { SubmissionTable } from './submission-rows';
import { StatusCounts } from './status-counts';
import { BulkActions } from './bulk-actions';
import { useRowSelection } from './use-row-selection';

const PAGE_SIZE = 20;
const POLL_INTERVAL_MS = 3000;
/** While a text search may miss submissions still being indexed: how soon to ask again. */
const INDEXING_RECHECK_MS = 1000;

export function SubmissionsPage() {
  const { siteId = '', formId = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = readInboxFilter(searchParams);
  // Another form: a fresh inbox (its own pages and its own count of new submissions).
  return (
    <Inbox
      key={formId}
      siteId={siteId}
      formId={formId}
      filter={filter}
      onFilterChange={(next) => setSearchParams(writeInboxFilter(searchParams, next))}
    />
  );
}

function Inbox({
  siteId,
  formId,
  filter,
  onFilterChange,
}: {
  siteId: string;
  formId: string;
  filter: InboxFilter;
  onFilterChange: (filter: InboxFilter) => void;
}) {
  const { cursors, setCursors, after, pageNumber } = useCursorPages();
  // A query too short to send (typed, or in a link): only the box's hint shows, not the list of the
  // last query that was sent, whose count would read as the answer to this one.
  const [tooShort, setTooShort] = useState(() => isTooShort(filter.query));
  const context = useMemo(() => ({ additionalTypenames: ['Submission'] }), []);
  const filtered = isFiltered(filter);
  const variables = filtered ? toFilterVariables(filter) : null;
  const state = toStateVariables(filter);
  // What was there when the list opened, to count and mark what came since. `total` is null when the
  // count stopped at its limit: arrivals are then counted as those created after `newest`.
  const baseline = useRef<{ total: number | null; newest: string | null; ids: Set<string> } | null>(null);
  // Another filter is another list: back to its first page and a new baseline. Adjusted during render
  // (not in an effect) so the old filter's cursors are never sent with the new filter; the search box
  // stays mounted and keeps its focus.
  const filterKey = JSON.stringify([variables, state]);
  const [listedKey, setListedKey] = useState(filterKey);
  if (listedKey !== filterKey) {
    setListedKey(filterKey);
    setCursors([null]);
    baseline.current = null;
  }
  const [{ data, error, fetching }, refetch] = useQuery({
    query: SubmissionsInboxDocument,
    variables: {
      formId,
      first: PAGE_SIZE,
      after: listedKey === filterKey ? after : null,
      filter: variables,
      state,
    },
    context,
  });
  const count = useSubmissionCount({ formId, filter: variables, state });
  const capped = baseline.current !== null && baseline.current.total === null;
  const arrivals = useArrivalsSince({
    formId,
    filter: variables,
    state,
    since: capped ? (baseline.current?.newest ?? null) : null,
  });
  const refresh = useLivePageAndCount(
    () => refetch({ requestPolicy: 'network-only' }),
    {
      refresh: () => {
        count.refresh();
        arrivals.refresh();
      },
    },
    formId,
    POLL_INTERVAL_MS,
  );

  const connection = data?.submissions;
  const total = count.total;
  // A text search while new submissions are still being indexed may miss them: say so, and ask
  // again until the index has caught up (the worker takes about a second).
  const indexing = filter.query !== '' && count.searchIndexing;
  useEffect(() => {
    if (!indexing) {
      return undefined;
    }
    const timer = setTimeout(refresh, INDEXING_RECHECK_MS);
    return () => clearTimeout(timer);
  });
  // Taken from answers to this filter only: while a new filter's answers are on their way, urql still
  // shows the previous filter's, and a baseline from those would count the difference as new.
  const counted = total !== undefined || count.over !== undefined;
  const settled = connection !== undefined && counted && !fetching && !count.fetching;
  useEffect(() => {
    if (settled && baseline.current === null) {
      baseline.current = {
        total: total ?? null,
        newest: connection.edges[0]?.node.createdAt ?? null,
        ids: new Set(connection.edges.map((edge) => edge.node.id)),
      };
    }
  }, [settled, connection, total]);
  const isNew = (id: string) => baseline.current !== null && !baseline.current.ids.has(id) && pageNumber === 1;
  const rows = useMemo(() => connection?.edges.map((edge) => edge.node) ?? [], [connection]);
  const arrived = arrivedSince(baseline.current, total, arrivals.arrived ?? 0);

  // The total drops by the deleted one: the baseline too, so the count of new ones stays right.
  const afterDeletion = () => {
    if (baseline.current?.total != null) {
      baseline.current.total -= 1;
    }
    refresh();
  };

  const selection = useRowSelection(useMemo(() => rows.map((row) => row.id), [rows]));
  const afterBulkAction = () => {
    selection.clear();
    baseline.current = null;
    refresh();
  };
  // A form that declares its fields shows them, in their order; otherwise the first keys the rows hold.
  const declared = data?.form?.fields.map((field) => field.name) ?? [];
  const keys = declared.length > 0 ? declared : columnKeys(rows.map((row) => row.data as Record<string, unknown>));

  return (
    <>
      <SubmissionListHeader title="Submissions" onRefresh={refresh} formId={formId} filter={variables} />
      <SubmissionFilters filter={filter} onChange={onFilterChange} tooShort={tooShort} onTooShortChange={setTooShort} />
      <StatusCounts formId={formId} />
      <QueryStatus data={data} error={error} fetching={fetching} subject="submissions" />
      {connection && !tooShort ? (
        <>
          <Group justify="space-between" mb="sm" wrap="wrap">
            <Text data-testid="submission-count">
              {filtered
                ? countText(count, 'matching submission', 'matching submissions')
                : countText(count, 'submission', 'submissions')}
              {rows.length > 0 ? `, newest first (page ${pageNumber})` : ''}
              <CountAllButton count={count} />
            </Text>
            {/* Announced politely as submissions arrive; the list refreshes itself every few seconds. */}
            <Group gap="xs" aria-live="polite" role="status">
              {indexing ? (
                <Text size="sm" c="dimmed" data-testid="search-indexing">
                  Indexing new submissions… they will show in search in a moment.
                </Text>
              ) : null}
              {arrived > 0 ? (
                <Badge color="green" variant="dot">
                  {arrived === 1 ? '1 new since you opened this page' : `${arrived} new since you opened this page`}
                </Badge>
              ) : null}
              {arrived > 0 && pageNumber > 1 ? (
                <Button size="xs" variant="light" onClick={() => setCursors([null])}>
                  Show the newest
                </Button>
              ) : null}
            </Group>
          </Group>
          {selection.ids.length > 0 ? (
            <BulkActions formId={formId} ids={selection.ids} onDone={afterBulkAction} />
          ) : null}
          <SubmissionTable
            rows={rows}
            keys={keys}
            selection={selection}
            empty={
              rows.length > 0 ? null : filtered ? (
                'No submissions match these filters.'
              ) : pageNumber > 1 ? (
                'No older submissions.'
              ) : (
                <>
                  No submissions yet. They appear here a few seconds after the site&apos;s backend sends them to the
                  form&apos;s endpoint (see the site&apos;s{' '}
                  <Anchor underline="always" component={Link} to={paths.siteApi(siteId)}>
                    API
                  </Anchor>{' '}
                  page).
                </>
              )
            }
            minWidth={Math.max(640, 260 + keys.length * 180)}
            caption="Submissions to this form, newest first; open one to see every field and its files"
            pager={{ label: 'Pages of submissions', cursors, setCursors, pageInfo: connection.pageInfo }}
            received={(row) => (
              <>
                <Anchor component={Link} to={paths.formSubmission(siteId, formId, row.id)}>
                  {formatDateTime(row.createdAt)}
                </Anchor>
                {isNew(row.id) ? (
                  <Badge ml="xs" size="sm" color="green" variant="dot">
                    New
                  </Badge>
                ) : null}
              </>
            )}
            actions={(row) => (
              <Button size="xs" variant="light" component={Link} to={paths.formSubmission(siteId, formId, row.id)}>
                Open
              </Button>
            )}
            onDeleted={afterDeletion}
          />
        </>
      ) : null}
    </>
  );
}

/** How many arrived since the baseline: the exact counts' difference, else those counted after it. */
function arrivedSince(baseline: { total: number | null } | null, total: number | undefined, counted: number) {
  if (baseline === null) {
    return 0;
  }
  return baseline.total !== null && total !== undefined ? Math.max(0, total - baseline.total) : counted;
}
