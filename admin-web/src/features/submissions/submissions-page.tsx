// A form's inbox: its submissions newest first, a page at a time with the API's cursors, columns from
// the fields the page holds, and new submissions shown as they come (the page polls while visible).
import { Anchor, Badge, Button, Group, Loader, Table, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconRefresh } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { graphql } from '../../gql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { usePolling } from '../../lib/use-polling';
import { columnKeys, compactValue } from '../../lib/submission-values';
import { useDeleteSubmission } from '../../components/use-delete-submission';

const PAGE_SIZE = 20;
const POLL_INTERVAL_MS = 3000;

const SubmissionsInboxQuery = graphql(`
  query SubmissionsInbox($formId: ID!, $first: Int, $after: String) {
    submissions(formId: $formId, first: $first, after: $after) {
      totalCount
      edges {
        cursor
        node {
          id
          createdAt
          data
          files {
            id
            name
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export function SubmissionsPage() {
  const { siteId = '', formId = '' } = useParams();
  // Another form: a fresh inbox (its own pages and its own count of new submissions).
  return <Inbox key={formId} siteId={siteId} formId={formId} />;
}

function Inbox({ siteId, formId }: { siteId: string; formId: string }) {
  // The `after` cursor of each page visited so far: the last one is the page shown.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  const context = useMemo(() => ({ additionalTypenames: ['Submission'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({
    query: SubmissionsInboxQuery,
    variables: { formId, first: PAGE_SIZE, after },
    context,
  });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  usePolling(refresh, POLL_INTERVAL_MS);

  // What was there when the page opened, to count and mark what came since.
  const baseline = useRef<{ total: number; ids: Set<string> } | null>(null);
  const connection = data?.submissions;
  useEffect(() => {
    if (connection && baseline.current === null) {
      baseline.current = { total: connection.totalCount, ids: new Set(connection.edges.map((edge) => edge.node.id)) };
    }
  }, [connection]);
  const arrived = connection && baseline.current ? Math.max(0, connection.totalCount - baseline.current.total) : 0;
  const isNew = (id: string) => baseline.current !== null && !baseline.current.ids.has(id) && cursors.length === 1;

  const { ask: askDelete, dialog: deleteDialog } = useDeleteSubmission(() => {
    if (baseline.current) {
      baseline.current.total -= 1;
    }
    refresh();
  });

  const rows = connection?.edges.map((edge) => edge.node) ?? [];
  const keys = columnKeys(rows.map((row) => row.data as Record<string, unknown>));
  const pageNumber = cursors.length;

  return (
    <>
      <PageHeader
        title="Submissions"
        actions={
          <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={refresh}>
            Refresh
          </Button>
        }
      />
      <ErrorAlert error={data ? undefined : error} title="The submissions could not be loaded" />
      {!data && fetching ? <Loader aria-label="Loading submissions" /> : null}
      {connection ? (
        <>
          <Group justify="space-between" mb="sm" wrap="wrap">
            <Text data-testid="submission-count">
              {connection.totalCount === 1 ? '1 submission' : `${connection.totalCount} submissions`}
              {connection.totalCount > 0 ? `, newest first (page ${pageNumber})` : ''}
            </Text>
            {/* Announced politely as submissions arrive; the list refreshes itself every few seconds. */}
            <Group gap="xs" aria-live="polite" role="status">
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
          {connection.totalCount === 0 ? (
            <Text c="dimmed">
              No submissions yet. They appear here a few seconds after the site&apos;s backend sends them to the
              form&apos;s endpoint (see the site&apos;s{' '}
              <Anchor underline="always" component={Link} to={paths.siteApi(siteId)}>
                API
              </Anchor>{' '}
              page).
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={Math.max(640, 260 + keys.length * 180)}>
              <Table striped highlightOnHover verticalSpacing="sm">
                <Table.Caption>
                  Submissions to this form, newest first; open one to see every field and its files
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Received</Table.Th>
                    {keys.map((key) => (
                      <Table.Th scope="col" key={key}>
                        {decodeStoredText(key)}
                      </Table.Th>
                    ))}
                    <Table.Th scope="col">Files</Table.Th>
                    <Table.Th scope="col">Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => {
                    const values = row.data as Record<string, unknown>;
                    return (
                      <Table.Tr key={row.id}>
                        <Table.Th scope="row" fw="normal" style={{ whiteSpace: 'nowrap' }}>
                          <Anchor component={Link} to={paths.formSubmission(siteId, formId, row.id)}>
                            {formatDateTime(row.createdAt)}
                          </Anchor>
                          {isNew(row.id) ? (
                            <Badge ml="xs" size="sm" color="green" variant="dot">
                              New
                            </Badge>
                          ) : null}
                        </Table.Th>
                        {keys.map((key) => (
                          <Table.Td key={key} style={{ overflowWrap: 'anywhere' }}>
                            {compactValue(values[key])}
                          </Table.Td>
                        ))}
                        <Table.Td>
                          {row.files.length === 0
                            ? '—'
                            : row.files.map((file) => decodeStoredText(file.name)).join(', ')}
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <Button
                              size="xs"
                              variant="light"
                              component={Link}
                              to={paths.formSubmission(siteId, formId, row.id)}
                            >
                              Open
                            </Button>
                            <Button
                              size="xs"
                              variant="light"
                              color="red"
                              onClick={() => askDelete({ id: row.id, fileCount: row.files.length })}
                            >
                              Delete
                            </Button>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pageNumber > 1 || connection.pageInfo.hasNextPage ? (
            <Group justify="space-between" mt="md" component="nav" aria-label="Pages of submissions">
              <Button
                variant="default"
                leftSection={<IconChevronLeft size={16} aria-hidden />}
                disabled={pageNumber === 1}
                onClick={() => setCursors((list) => list.slice(0, -1))}
              >
                Newer
              </Button>
              <Button
                variant="default"
                rightSection={<IconChevronRight size={16} aria-hidden />}
                disabled={!connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor}
                onClick={() => setCursors((list) => [...list, connection.pageInfo.endCursor ?? null])}
              >
                Older
              </Button>
            </Group>
          ) : null}
        </>
      ) : null}
      {deleteDialog}
    </>
  );
}
