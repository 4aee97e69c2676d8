// One submission: every field (nested objects and lists readable) and every file with its type, size,
// checksum and a download link; its status, assignee and notes; its signed receipt and whether it still matches; its deliveries; Delete. Its own route, so a link to it can be shared and reloaded.
import { Anchor, Button, Code, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconArrowLeft, IconDownload } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from 'urql';
import { PageHeader } from '../../components/page-header';
import { QueryStatus } from '../../components/query-status';
import { SubmissionDetailDocument, type SubmissionDetailQuery } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatBytes, formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { ScrollTable } from '../../components/scroll-table';
import { FieldTable } from './submission-data';
import { InboxStateSection } from './inbox-state-section';
import { ReceiptSection } from './receipt-section';
import { DeliveriesSection } from './deliveries-section';
import { useCanManageSite } from '../../components/site-access';
import { useDeleteSubmission } from './use-delete-submission';

type StoredFileRow = NonNullable<SubmissionDetailQuery['submission']>['files'][number];

function FilesTable({ files }: { files: readonly StoredFileRow[] }) {
  return (
    <ScrollTable minWidth={900}>
      <Table.Caption>Files sent with this submission</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Name</Table.Th>
          <Table.Th scope="col">Field</Table.Th>
          <Table.Th scope="col">Type</Table.Th>
          <Table.Th scope="col">Size</Table.Th>
          <Table.Th scope="col">SHA-256</Table.Th>
          <Table.Th scope="col">Download</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {files.map((file) => {
          const name = decodeStoredText(file.name);
          return (
            <Table.Tr key={file.id}>
              <Table.Th scope="row" fw="normal" style={{ overflowWrap: 'break-word' }}>
                {name}
              </Table.Th>
              <Table.Td>{decodeStoredText(file.field)}</Table.Td>
              <Table.Td>{file.mimeType}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatBytes(file.size)}</Table.Td>
              <Table.Td>
                <Code data-testid="file-sha256" style={{ wordBreak: 'break-all' }}>
                  {file.sha256}
                </Code>
              </Table.Td>
              <Table.Td>
                {/* The name is in the row's key column beside it: spoken, not shown again, so the link fits a phone. */}
                <Anchor href={file.downloadUrl} style={{ whiteSpace: 'nowrap' }}>
                  <IconDownload size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} /> Download
                  <VisuallyHidden> {name}</VisuallyHidden>
                </Anchor>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </ScrollTable>
  );
}

export function SubmissionDetailPage() {
  const { siteId = '', formId = '', submissionId = '' } = useParams();
  const navigate = useNavigate();
  // Download links last a short time: fetch fresh ones whenever the page opens.
  const [{ data, error, fetching }] = useQuery({
    query: SubmissionDetailDocument,
    variables: { id: submissionId },
    requestPolicy: 'network-only',
  });
  const { ask: askDelete, dialog: deleteDialog } = useDeleteSubmission(() =>
    navigate(paths.formSubmissions(siteId, formId)),
  );
  const submission = data?.submission && data.submission.formId === formId ? data.submission : null;
  const canDelete = useCanManageSite();
  const back = (
    <Anchor component={Link} to={paths.formSubmissions(siteId, formId)} size="sm">
      <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} /> Back to the submissions
    </Anchor>
  );

  return (
    <>
      <PageHeader
        title="Submission"
        help="submission"
        actions={
          submission && canDelete ? (
            <Button
              variant="light"
              color="red"
              onClick={() => askDelete({ id: submission.id, fileCount: submission.files.length })}
            >
              Delete
            </Button>
          ) : null
        }
      />
      <Stack gap="lg">
        {back}
        <QueryStatus data={data} error={error} fetching={fetching} subject="the submission" />
        {data && !submission ? (
          <Text role="alert">There is no such submission on this form (it may have been deleted).</Text>
        ) : null}
        {submission ? (
          <>
            <Text>
              Received <strong>{formatDateTime(submission.createdAt)}</strong>{' '}
              <Text span c="dimmed" size="sm">
                ({submission.createdAt})
              </Text>
            </Text>
            <InboxStateSection submissionId={submission.id} formId={formId} />
            <Paper withBorder p="md" component="section" aria-labelledby="fields-title">
              <Title order={2} size="h4" id="fields-title" mb="sm">
                Fields
              </Title>
              <FieldTable
                data={submission.data as Record<string, unknown>}
                caption="Every field as stored. Markup is removed before storage; a field that had some is marked."
                sanitized={new Set(submission.sanitizedFields)}
              />
            </Paper>
            <Paper withBorder p="md" component="section" aria-labelledby="files-title">
              <Group justify="space-between" mb="sm">
                <Title order={2} size="h4" id="files-title">
                  Files
                </Title>
              </Group>
              {submission.files.length === 0 ? (
                <Text c="dimmed">No files came with this submission.</Text>
              ) : (
                <FilesTable files={submission.files} />
              )}
            </Paper>
            <ReceiptSection submission={submission} />
            <DeliveriesSection submissionId={submission.id} />
          </>
        ) : null}
      </Stack>
      {deleteDialog}
    </>
  );
}
