// What became of a submission: each webhook delivery and the notification e-mails, with their status,
// attempts and why the latest one failed, kept fresh while the page is open; Redeliver for those who
// manage the site (the Webhooks page's replay, docs/webhooks.md). Its own query, so the rest of the
// page loads without waiting for it.
import { Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { DeliveryStatus } from '../../components/delivery-status';
import { ErrorAlert } from '../../components/error-alert';
import { notifyError, notifySuccess } from '../../components/notify';
import { ScrollTable } from '../../components/scroll-table';
import { useCanManageSite } from '../../components/site-access';
import {
  RedeliverSubmissionDeliveryDocument,
  SubmissionDeliveriesDocument,
  type SubmissionDeliveriesQuery,
} from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';
import { usePolling } from '../../lib/use-polling';

// As the Webhooks page: attempts show up within a few seconds of the worker making them.
const POLL_INTERVAL_MS = 5000;

type DeliveryRow = NonNullable<SubmissionDeliveriesQuery['submission']>['deliveries'][number];

function destination(delivery: DeliveryRow): string {
  if (delivery.channel === 'confirmation') {
    return 'Confirmation e-mail to the submitter';
  }
  return delivery.channel === 'webhook' ? `Webhook to ${delivery.target}` : `Notification e-mail to ${delivery.target}`;
}

function LastAttempt({ delivery }: { delivery: DeliveryRow }) {
  if (!delivery.lastAttemptAt) {
    return <Text size="sm">No attempt yet</Text>;
  }
  return (
    <>
      <Text size="sm">{formatDateTime(delivery.lastAttemptAt)}</Text>
      {delivery.lastError ? (
        <Text size="sm" c="red.9" style={{ overflowWrap: 'break-word' }}>
          {delivery.lastError}
        </Text>
      ) : null}
    </>
  );
}

function DeliveryTable({ deliveries, onReplayed }: { deliveries: readonly DeliveryRow[]; onReplayed: () => void }) {
  const canManage = useCanManageSite();
  const [, redeliver] = useMutation(RedeliverSubmissionDeliveryDocument);
  const [pendingId, setPendingId] = useState<string | null>(null);

  const replay = async (delivery: DeliveryRow) => {
    setPendingId(delivery.id);
    const result = await redeliver({ deliveryId: delivery.id });
    setPendingId(null);
    if (result.error) {
      notifyError(result.error, 'The delivery was not queued again');
      return;
    }
    notifySuccess('Delivery queued again; its next attempt appears here shortly');
    onReplayed();
  };

  return (
    <ScrollTable
      minWidth={720}
      striped
      // Without Redeliver (a reader) no control is inside: the scroll area itself takes focus, so the
      // keyboard can scroll it.
      scrollAreaProps={
        canManage
          ? undefined
          : {
              viewportProps: {
                tabIndex: 0,
                role: 'region',
                'aria-label': 'Where this submission was sent, scrollable',
              },
            }
      }
    >
      <Table.Caption>Where this submission was sent and what became of it</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Destination</Table.Th>
          <Table.Th scope="col">Status</Table.Th>
          <Table.Th scope="col">Attempts</Table.Th>
          <Table.Th scope="col">Last attempt</Table.Th>
          {canManage ? <Table.Th scope="col">Actions</Table.Th> : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {deliveries.map((delivery) => (
          <Table.Tr key={delivery.id} style={{ verticalAlign: 'top' }}>
            <Table.Th scope="row" fw="normal" style={{ overflowWrap: 'anywhere' }}>
              {destination(delivery)}
            </Table.Th>
            <Table.Td>
              <DeliveryStatus status={delivery.status} nextAttemptAt={delivery.nextAttemptAt} />
            </Table.Td>
            <Table.Td>{delivery.attemptCount}</Table.Td>
            <Table.Td>
              <LastAttempt delivery={delivery} />
            </Table.Td>
            {canManage ? (
              <Table.Td>
                <Button size="xs" variant="light" onClick={() => replay(delivery)} loading={pendingId === delivery.id}>
                  Redeliver
                </Button>
              </Table.Td>
            ) : null}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}

export function DeliveriesSection({ submissionId }: { submissionId: string }) {
  const context = useMemo(() => ({ additionalTypenames: ['Delivery', 'SubmissionDelivery'] }), []);
  const [{ data, error }, refetch] = useQuery({
    query: SubmissionDeliveriesDocument,
    variables: { id: submissionId },
    context,
    requestPolicy: 'network-only',
  });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  usePolling(refresh, POLL_INTERVAL_MS);
  const submission = data?.submission;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="deliveries-title">
      <Title order={2} size="h4" id="deliveries-title" mb="sm">
        Deliveries
      </Title>
      {error && !data ? <ErrorAlert error={error} title="The deliveries could not be loaded" /> : null}
      {!submission ? null : submission.deliveries.length === 0 ? (
        <Text c="dimmed">
          {submission.spam
            ? 'Not delivered: spam goes to no webhook and no e-mail until it is marked “Not spam”.'
            : 'Not delivered anywhere: the form had no webhook and no notification e-mail when this arrived.'}
        </Text>
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            Refreshes by itself every few seconds.
          </Text>
          <DeliveryTable deliveries={submission.deliveries} onReplayed={refresh} />
        </Stack>
      )}
    </Paper>
  );
}
