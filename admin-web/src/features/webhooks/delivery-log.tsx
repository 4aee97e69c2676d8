// A delivery log: each event sent to a webhook (or as notification e-mails), its status and every
// attempt (when, the answer's status, how long, the error, the start of the answer), and Redeliver;
// until it has loaded, its spinner or its error.
import { Button, Code, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useMutation, type CombinedError } from 'urql';
import { DeliveryStatus } from '../../components/delivery-status';
import { ErrorAlert } from '../../components/error-alert';
import { ScrollTable } from '../../components/scroll-table';
import { WholeAddresses } from '../../components/whole-addresses';
import { notifyError, notifySuccess } from '../../components/notify';
import { RedeliverDocument } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';

export interface DeliveryRow {
  id: string;
  eventType: string;
  channel: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attemptCount: number;
  createdAt: string;
  completedAt?: string | null;
  nextAttemptAt?: string | null;
  recipients?: readonly string[] | null;
  attempts: readonly {
    number: number;
    startedAt: string;
    statusCode?: number | null;
    durationMs: number;
    error?: string | null;
    response?: string | null;
    succeeded: boolean;
  }[];
}

const EXCERPT_LENGTH = 300;

function Attempts({ attempts }: { attempts: DeliveryRow['attempts'] }) {
  if (attempts.length === 0) {
    return <Text size="sm">No attempt yet</Text>;
  }
  return (
    <Stack gap={6}>
      {attempts.map((attempt) => (
        <div key={attempt.number}>
          <Text size="sm">
            #{attempt.number} · {formatDateTime(attempt.startedAt)} ·{' '}
            {attempt.statusCode === null || attempt.statusCode === undefined
              ? 'no answer'
              : `HTTP ${attempt.statusCode}`}{' '}
            · {attempt.durationMs} ms · {attempt.succeeded ? 'succeeded' : 'failed'}
          </Text>
          {attempt.error ? (
            <Text size="sm" c="red.9" style={{ overflowWrap: 'break-word' }}>
              {attempt.error}
            </Text>
          ) : null}
          {attempt.response ? (
            <details>
              <summary>
                <Text span size="sm">
                  {attempt.response.length > EXCERPT_LENGTH ? `Answer (first ${EXCERPT_LENGTH} characters)` : 'Answer'}
                </Text>
              </summary>
              <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {attempt.response.slice(0, EXCERPT_LENGTH)}
              </Code>
            </details>
          ) : null}
        </div>
      ))}
    </Stack>
  );
}

interface DeliveryTableProps {
  caption: string;
  deliveries: readonly DeliveryRow[];
  onRefresh: () => void;
  refreshing: boolean;
  /** What to say when there is nothing yet. */
  empty: string;
}

function DeliveryTable({ caption, deliveries, onRefresh, refreshing, empty }: DeliveryTableProps) {
  const [, redeliver] = useMutation(RedeliverDocument);
  const [pendingId, setPendingId] = useState<string | null>(null);

  const replay = async (delivery: DeliveryRow) => {
    setPendingId(delivery.id);
    const result = await redeliver({ deliveryId: delivery.id }, { additionalTypenames: ['Delivery'] });
    setPendingId(null);
    if (result.error) {
      notifyError(result.error, 'The delivery was not queued again');
      return;
    }
    notifySuccess('Delivery queued again; its next attempt appears here shortly');
    onRefresh();
  };

  const withRecipients = deliveries.some((delivery) => (delivery.recipients?.length ?? 0) > 0);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {caption}. Refreshes by itself every few seconds.
        </Text>
        <Button
          size="xs"
          variant="default"
          onClick={onRefresh}
          loading={refreshing}
          leftSection={<IconRefresh size={14} aria-hidden />}
          aria-label={`Refresh: ${caption}`}
        >
          Refresh
        </Button>
      </Group>
      {deliveries.length === 0 ? (
        <Text size="sm">{empty}</Text>
      ) : (
        <ScrollTable minWidth={900} striped>
          <Table.Caption>{caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Event</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              {withRecipients ? <Table.Th scope="col">Recipients</Table.Th> : null}
              <Table.Th scope="col">Attempts</Table.Th>
              <Table.Th scope="col">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.map((delivery) => (
              <Table.Tr key={delivery.id} style={{ verticalAlign: 'top' }}>
                <Table.Th scope="row" fw="normal">
                  <Code>{delivery.eventType}</Code>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(delivery.createdAt)}
                  </Text>
                </Table.Th>
                <Table.Td>
                  <DeliveryStatus status={delivery.status} nextAttemptAt={delivery.nextAttemptAt} />
                </Table.Td>
                {withRecipients ? (
                  <Table.Td style={{ overflowWrap: 'break-word' }}>
                    <WholeAddresses text={(delivery.recipients ?? []).join(', ')} />
                  </Table.Td>
                ) : null}
                <Table.Td>
                  <Attempts attempts={delivery.attempts} />
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => replay(delivery)}
                    loading={pendingId === delivery.id}
                  >
                    Redeliver
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      )}
    </Stack>
  );
}

/** A polled delivery log: its entries once loaded, how loading went, and a refresh. */
export interface PolledDeliveries {
  deliveries?: readonly DeliveryRow[];
  error?: CombinedError;
  fetching: boolean;
  refresh: () => void;
}

interface DeliveryLogProps {
  log: PolledDeliveries;
  /** The log's name after `the`, for its spinner and its error: `delivery log`. */
  subject: string;
  caption: string;
  empty: string;
}

/** A delivery log's table once it has loaded; until then its spinner, or its error. */
export function DeliveryLog({ log, subject, caption, empty }: DeliveryLogProps) {
  if (!log.deliveries) {
    return log.error ? (
      <ErrorAlert error={log.error} title={`The ${subject} could not be loaded`} />
    ) : (
      <Loader size="sm" aria-label={`Loading the ${subject}`} />
    );
  }
  return (
    <DeliveryTable
      caption={caption}
      deliveries={log.deliveries}
      onRefresh={log.refresh}
      refreshing={log.fetching}
      empty={empty}
    />
  );
}
