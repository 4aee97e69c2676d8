// The audit log: who did what to which object, when and from where, newest first. Filters for the
// actor, the action and a date range apply on submit, so typing does not send a query per key.
import { Badge, Button, Group, Table, Text, TextInput } from '@mantine/core';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { PagedTable } from '../../components/paged-table';
import { PageHeader } from '../../components/page-header';
import { ColumnHeaders } from '../../components/column-headers';
import { QueryStatus } from '../../components/query-status';
import { RefreshButton } from '../../components/refresh-button';
import { WholeAddresses } from '../../components/whole-addresses';
import { AuditLogDocument, type AuditActorKind, type AuditLogFilterInput, type AuditLogQuery } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';
import { useCursorPages } from '../../lib/use-cursor-pages';
import { useAuditChainCheck } from './audit-chain-check';

const PAGE_SIZE = 25;

interface FilterFields {
  actor: string;
  action: string;
  from: string;
  to: string;
}

/** The filter form's inputs, in order; `width` from the xs breakpoint up (full width below). */
const FILTER_INPUTS: { name: keyof FilterFields; label: string; description?: string; type?: 'date'; width: number }[] =
  [
    { name: 'actor', label: 'Who', description: 'E-mail, token name or id', width: 220 },
    { name: 'action', label: 'Action', description: 'For example deleteSite', width: 180 },
    { name: 'from', label: 'From', type: 'date', width: 160 },
    { name: 'to', label: 'To', type: 'date', width: 160 },
  ];

const NO_FILTER: FilterFields = { actor: '', action: '', from: '', to: '' };

/** `YYYY-MM-DD` of a date input as the start of that local day; `endOfDay` for the day after. */
function dayStart(day: string, endOfDay = false): string | null {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) {
    return null;
  }
  return new Date(year, month - 1, date + (endOfDay ? 1 : 0)).toISOString();
}

function toFilter(fields: FilterFields): AuditLogFilterInput {
  const filter: AuditLogFilterInput = {};
  if (fields.actor.trim()) {
    filter.actor = fields.actor.trim();
  }
  if (fields.action.trim()) {
    filter.action = fields.action.trim();
  }
  const from = fields.from ? dayStart(fields.from) : null;
  const to = fields.to ? dayStart(fields.to, true) : null;
  if (from) {
    filter.from = from;
  }
  if (to) {
    filter.to = to;
  }
  return filter;
}

/** Who acts, in words; a kind a newer server adds shows as it is. */
const ACTOR_KINDS: Record<AuditActorKind, string> = {
  ADMIN: 'Administrator',
  API_TOKEN: 'API token',
  SYSTEM: 'System',
  ANONYMOUS: 'Not signed in',
};

type AuditEntry = AuditLogQuery['auditLog']['edges'][number]['node'];

/** An entry: when, who, which action on which object, from where, and whether it succeeded. */
function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw="normal" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(entry.at)}
        {/* Its place in the chain: what Verify names when an entry was altered. */}
        <Text size="xs" c="dimmed">
          Entry {entry.sequence}
        </Text>
      </Table.Th>
      <Table.Td style={{ overflowWrap: 'break-word' }}>
        <Text size="sm">
          <WholeAddresses text={decodeStoredText(entry.actor.name)} />
        </Text>
        <Text size="xs" c="dimmed">
          {ACTOR_KINDS[entry.actor.kind] ?? entry.actor.kind}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {entry.action}
        </Text>
      </Table.Td>
      <Table.Td style={{ overflowWrap: 'break-word' }}>
        {entry.objectType || entry.objectId ? (
          <>
            <Text size="sm">{entry.objectType ?? '—'}</Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {entry.objectId ?? ''}
            </Text>
          </>
        ) : (
          '—'
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{entry.address ?? '—'}</Table.Td>
      <Table.Td>
        {entry.outcome === 'SUCCESS' ? (
          <Badge color="green" variant="dot">
            Succeeded
          </Badge>
        ) : (
          <Badge color="red" variant="dot">
            Failed{entry.errorCode ? `: ${entry.errorCode}` : ''}
          </Badge>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export function AuditLogPage() {
  const [fields, setFields] = useState<FilterFields>(NO_FILTER);
  const [filter, setFilter] = useState<AuditLogFilterInput>({});
  // The `after` cursor of each page visited so far: the last one is the page shown.
  const { cursors, setCursors, after, pageNumber } = useCursorPages();
  const [{ data, error, fetching }, refetch] = useQuery({
    query: AuditLogDocument,
    variables: { first: PAGE_SIZE, after, filter },
    requestPolicy: 'cache-and-network',
  });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const chain = useAuditChainCheck();

  const apply = (next: FilterFields) => {
    setFields(next);
    setFilter(toFilter(next));
    setCursors([null]);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply(fields);
  };
  const change = (name: keyof FilterFields) => (event: ChangeEvent<HTMLInputElement>) =>
    setFields({ ...fields, [name]: event.currentTarget.value });

  const connection = data?.auditLog;
  const rows = connection?.edges.map((edge) => edge.node) ?? [];

  return (
    <>
      <PageHeader
        title="Audit log"
        help="auditLog"
        actions={
          <>
            {chain.buttons}
            <RefreshButton onClick={refresh} />
          </>
        }
      />
      <Text mb="md">
        Every change made through the admin API or this console, every sign-in and failed sign-in, and the
        service&apos;s own retention runs. Entries never hold passwords, secrets or submitted values. Each entry is
        chained to the one before it: Verify shows whether any was changed, removed or moved; Export downloads the log
        with its signed checkpoints to keep elsewhere.
      </Text>
      {chain.status}
      <form onSubmit={onSubmit} aria-label="Filter the audit log">
        <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
          {FILTER_INPUTS.map((input) => (
            <TextInput
              key={input.name}
              label={input.label}
              description={input.description}
              type={input.type}
              value={fields[input.name]}
              onChange={change(input.name)}
              w={{ base: '100%', xs: input.width }}
            />
          ))}
          <Group gap="sm">
            <Button type="submit">Apply filters</Button>
            <Button variant="default" onClick={() => apply(NO_FILTER)}>
              Clear
            </Button>
          </Group>
        </Group>
      </form>
      <QueryStatus data={data} error={error} fetching={fetching} subject="the audit log" />
      {connection ? (
        <>
          <PagedTable
            empty={rows.length === 0 ? 'No entries match.' : null}
            minWidth={860}
            // No control inside: the scroll area itself takes focus, so the keyboard can scroll it.
            scrollAreaProps={{
              viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Audit log entries, scrollable' },
            }}
            caption={`Audit log entries, newest first (page ${pageNumber})`}
            columns={<ColumnHeaders names={['Time', 'Who', 'Action', 'Object', 'Address', 'Outcome']} />}
            pager={{ label: 'Pages of the audit log', cursors, setCursors, pageInfo: connection.pageInfo }}
          >
            {rows.map((row) => (
              <AuditRow key={row.id} entry={row} />
            ))}
          </PagedTable>
        </>
      ) : null}
    </>
  );
}
