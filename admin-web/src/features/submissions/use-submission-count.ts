// The count of the inbox or the Spam view, in its own request beside the page's (see the .graphql
// file for why). `total` is undefined until the first answer for these variables.
import { useMemo } from 'react';
import { useQuery } from 'urql';
import {
  SubmissionCountDocument,
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
  const [{ data, fetching }, refetch] = useQuery({
    query: SubmissionCountDocument,
    variables: { formId, spam, filter, state },
    context,
  });
  return {
    total: data?.submissions.totalCount,
    /** Some of the form's newest submissions are not in the text search yet (a few seconds at most). */
    searchIndexing: data?.submissions.searchIndexing === true,
    /** While true, `total` may still be the previous variables' count. */
    fetching,
    refresh: () => refetch({ requestPolicy: 'network-only' }),
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
