// The count of the inbox or the Spam view, in its own request beside the page's (see the .graphql
// file for why): exact up to 1,000, "more than 1,000" beyond, and exact again once a person asks to
// count all.
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import {
  SubmissionCountDocument,
  SubmissionTotalCountDocument,
  type SubmissionFilterInput,
  type SubmissionStateFilterInput,
} from '../../gql/graphql';
import { useLiveRefresh } from '../../lib/live-updates';

interface CountedView {
  formId: string;
  spam?: boolean;
  filter?: SubmissionFilterInput | null;
  state?: SubmissionStateFilterInput | null;
}

export function useSubmissionCount({ formId, spam = false, filter = null, state = null }: CountedView) {
  // `Submission`: a deletion or a move out of Spam refetches the count too.
  const context = useMemo(() => ({ additionalTypenames: ['Submission'] }), []);
  const variables = { formId, spam, filter, state };
  const [{ data, fetching }, refetch] = useQuery({ query: SubmissionCountDocument, variables, context });
  // Count all applies to the view it was asked for; another filter starts from "more than" again.
  const view = JSON.stringify(variables);
  const [countAllFor, setCountAllFor] = useState<string | null>(null);
  const countingAllHere = countAllFor === view;
  const [all, refetchAll] = useQuery({
    query: SubmissionTotalCountDocument,
    variables,
    context,
    pause: !countingAllHere,
  });
  const upTo = data?.submissions.countUpTo;
  // Once counted, a refresh keeps showing the last exact count until the new one comes.
  const exactAll = countingAllHere ? all.data?.submissions.totalCount : undefined;
  return {
    /** The exact count; undefined while counting, or while more than `over` match and nobody asked for all. */
    total: exactAll ?? (upTo && !upTo.more ? upTo.count : undefined),
    /** The limit, when more submissions than it match and they were not all counted. */
    over: exactAll === undefined && upTo?.more === true ? upTo.count : undefined,
    /** Counts every match (slow on a big form): `total` once it is done. */
    countAll: () => setCountAllFor(view),
    countingAll: countingAllHere && exactAll === undefined,
    /** Some of the form's newest submissions are not in the text search yet (a few seconds at most). */
    searchIndexing: data?.submissions.searchIndexing === true,
    /** While true, `total` may still be the previous variables' count. */
    fetching,
    refresh: () => {
      refetch({ requestPolicy: 'network-only' });
      if (countingAllHere) {
        refetchAll({ requestPolicy: 'network-only' });
      }
    },
  };
}

export type SubmissionCount = ReturnType<typeof useSubmissionCount>;

/**
 * How many of the view's submissions arrived after `since` (the newest one's `createdAt` when the list
 * opened), counted up to 1,000: what came since, when the view's own count stopped at its limit and
 * the difference of two counts says nothing. Not asked while `since` is null.
 */
export function useArrivalsSince({
  formId,
  spam = false,
  filter = null,
  state = null,
  since,
}: CountedView & { since: string | null }) {
  const context = useMemo(() => ({ additionalTypenames: ['Submission'] }), []);
  // Strictly after it: the filter's lower bound is inclusive, and the user's own `From` may be later.
  const after = since === null ? null : new Date(Date.parse(since) + 1).toISOString();
  const createdAfter =
    after !== null && filter?.createdAfter && filter.createdAfter > after ? filter.createdAfter : after;
  const [{ data }, refetch] = useQuery({
    query: SubmissionCountDocument,
    variables: { formId, spam, filter: { ...filter, createdAfter }, state },
    context,
    pause: after === null,
  });
  return {
    /** Undefined until counted (or with no `since`). */
    arrived: after === null ? undefined : data?.submissions.countUpTo.count,
    refresh: () => {
      if (after !== null) {
        refetch({ requestPolicy: 'network-only' });
      }
    },
  };
}

/**
 * Refetches a view's page and its count together when a submission of the form arrives or changes
 * (live updates; every `fallbackPollMs` while their stream is down); returns that refresh for the
 * Refresh button and after a change.
 */
export function useLivePageAndCount(
  refetchPage: () => void,
  count: { refresh: () => void },
  formId: string,
  fallbackPollMs: number,
) {
  const refresh = () => {
    refetchPage();
    count.refresh();
  };
  useLiveRefresh(refresh, { formId }, fallbackPollMs);
  return refresh;
}
