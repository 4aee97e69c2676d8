// A form's Spam view: what the spam protections caught, newest first, with the reason in words. A
// person can say a submission is not spam (it moves to the inbox and is delivered then) or delete it.
import { Alert, Button, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { notifyError, notifySuccess } from '../../components/notify';
import { QueryStatus } from '../../components/query-status';
import { useCanManageSite } from '../../components/site-access';
import { MarkNotSpamDocument, SpamSubmissionsDocument } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';
import { columnKeys } from '../../lib/submission-values';
import { CountAllButton, countText } from './count-text';
import { SubmissionListHeader } from './submission-list-header';
import { SubmissionTable } from './submission-rows';
import { useLivePageAndCount, useSubmissionCount } from './use-submission-count';
import { useCursorPages } from '../../lib/use-cursor-pages';
import { BulkActions } from './bulk-actions';
import { useRowSelection } from './use-row-selection';

const PAGE_SIZE = 20;
const POLL_INTERVAL_MS = 5000;

const REASONS: Record<string, string> = {
  honeypot: 'Honeypot field filled',
  captcha_unavailable: 'CAPTCHA provider unreachable',
  links: 'Too many links',
  blocked_word: 'Blocked word',
  marked: 'Marked as spam by a member',
};

/** The reason in words; an unknown one (a newer server) as it is. */
function describeReason(reason: string | null | undefined): string {
  if (!reason) {
    return 'Unknown';
  }
  return REASONS[reason] ?? reason;
}

export function SpamPage() {
  const { formId = '' } = useParams();
  return <SpamList key={formId} formId={formId} />;
}

function SpamList({ formId }: { formId: string }) {
  const { cursors, setCursors, after, pageNumber } = useCursorPages();
  // Not spam and Delete change the site: for those who manage it.
  const canManage = useCanManageSite();
  const context = useMemo(() => ({ additionalTypenames: ['Submission'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({
    query: SpamSubmissionsDocument,
    variables: { formId, first: PAGE_SIZE, after },
    context,
  });
  const count = useSubmissionCount({ formId, spam: true });
  const refresh = useLivePageAndCount(
    () => refetch({ requestPolicy: 'network-only' }),
    count,
    formId,
    POLL_INTERVAL_MS,
  );
  const [marking, markNotSpam] = useMutation(MarkNotSpamDocument);
  const [markingId, setMarkingId] = useState<string | null>(null);

  const notSpam = async (id: string) => {
    setMarkingId(id);
    const result = await markNotSpam({ id }, { additionalTypenames: ['Submission', 'Form'] });
    setMarkingId(null);
    if (result.error) {
      notifyError(result.error, 'The submission was not moved');
      return;
    }
    notifySuccess('Moved to the inbox: its webhooks and notification e-mails are sent now');
    refresh();
  };

  const connection = data?.submissions;
  const rows = useMemo(() => connection?.edges.map((edge) => edge.node) ?? [], [connection]);
  const selection = useRowSelection(useMemo(() => rows.map((row) => row.id), [rows]));
  const afterBulkAction = () => {
    selection.clear();
    refresh();
  };
  const keys = columnKeys(
    rows.map((row) => row.data as Record<string, unknown>),
    3,
  );

  return (
    <>
      <SubmissionListHeader title="Spam" onRefresh={refresh} formId={formId} spam />
      <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />} mb="md">
        Submissions caught by this form&apos;s spam protection (see its settings). They were answered like any other,
        but are not delivered to webhooks or e-mailed. Spam is kept 30 days after it arrived, then deleted with its
        files. <strong>Not spam</strong> moves a submission to the inbox and delivers it.
      </Alert>
      <QueryStatus data={data} error={error} fetching={fetching} subject="spam" />
      {connection ? (
        <>
          <Text mb="sm" data-testid="spam-count">
            {countText(count, 'spam submission', 'spam submissions')}
            {rows.length > 0 ? `, newest first (page ${pageNumber})` : ''}
            <CountAllButton count={count} />
          </Text>
          {selection.ids.length > 0 && canManage ? (
            <BulkActions formId={formId} ids={selection.ids} spam onDone={afterBulkAction} />
          ) : null}
          <SubmissionTable
            rows={rows}
            keys={keys}
            selection={canManage ? selection : undefined}
            empty={
              rows.length > 0
                ? null
                : pageNumber > 1
                  ? 'No older spam.'
                  : 'No spam. Submissions the spam protection catches appear here.'
            }
            minWidth={Math.max(720, 420 + keys.length * 180)}
            caption="Spam submissions to this form, newest first, with why each was caught"
            pager={{ label: 'Pages of spam', cursors, setCursors, pageInfo: connection.pageInfo }}
            extraColumn={{
              header: 'Reason',
              cell: (row) => (
                <Text size="sm" fw={500}>
                  {describeReason(row.spamReason)}
                </Text>
              ),
            }}
            received={(row) => formatDateTime(row.createdAt)}
            actions={(row) =>
              canManage ? (
                <Button
                  size="xs"
                  variant="light"
                  loading={marking.fetching && markingId === row.id}
                  onClick={() => void notSpam(row.id)}
                >
                  Not spam
                </Button>
              ) : null
            }
            onDeleted={refresh}
          />
        </>
      ) : null}
    </>
  );
}
