// The inbox's submissions by status and the signed-in member's unread ones, above the list.
import { Text } from '@mantine/core';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { SubmissionStatusCountsDocument } from '../../gql/graphql';
import { useLiveRefresh } from '../../lib/live-updates';

// Only while live updates are down (live-updates.tsx).
const FALLBACK_POLL_MS = 5000;

export function StatusCounts({ formId }: { formId: string }) {
  // `Submission`: a change of status or a read mark refetches the counts.
  const context = useMemo(() => ({ additionalTypenames: ['Submission'] }), []);
  const [{ data }, refetch] = useQuery({ query: SubmissionStatusCountsDocument, variables: { formId }, context });
  // Another member's change, or a new submission.
  useLiveRefresh(() => refetch({ requestPolicy: 'network-only' }), { formId }, FALLBACK_POLL_MS);
  const counts = data?.submissionCounts;
  if (!counts) {
    return null;
  }
  return (
    <Text size="sm" c="dimmed" mb="sm" data-testid="status-counts">
      New {counts.new} · Open {counts.open} · Done {counts.done} · Archived {counts.archived} · Unread {counts.unread}
    </Text>
  );
}
