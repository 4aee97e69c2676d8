// The paged table the inbox and the Spam view share: when it came, one column per data key, its
// files and its actions, ending with Delete (which asks first). Each view adds its own cells and buttons.
// With a selection, each row's header cell starts with its checkbox (the key column stays first, so
// it stays in place on a phone) and the Received header with "select every row on this page".
import { Checkbox, Group, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { PagedTable } from '../../components/paged-table';
import type { NewerOlderPagerProps } from '../../components/newer-older-pager';
import { RowActions } from '../../components/row-actions';
import { WholeAddresses } from '../../components/whole-addresses';
import classes from './submission-rows.module.css';
import { useCanManageSite } from '../../components/site-access';
import { useDeleteSubmission } from './use-delete-submission';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { compactValue } from '../../lib/submission-values';
import { formatDateTime } from '../../lib/format';
import type { RowSelection } from './use-row-selection';

interface ListedSubmission {
  id: string;
  createdAt: string;
  data: unknown;
  files: { name: string }[];
}

/** Received, then `afterReceived`, one column per data key, Files and Actions. */
function SubmissionColumns({
  keys,
  afterReceived,
  selectAll,
}: {
  keys: string[];
  afterReceived?: ReactNode;
  selectAll?: ReactNode;
}) {
  return (
    <>
      <Table.Th scope="col">
        {selectAll ? (
          <Group gap="xs" wrap="nowrap">
            {selectAll}
            Received
          </Group>
        ) : (
          'Received'
        )}
      </Table.Th>
      {afterReceived}
      {keys.map((key) => (
        <Table.Th scope="col" key={key}>
          {decodeStoredText(key)}
        </Table.Th>
      ))}
      <Table.Th scope="col">Files</Table.Th>
      <Table.Th scope="col">Actions</Table.Th>
    </>
  );
}

interface SubmissionRowProps {
  submission: ListedSubmission;
  keys: string[];
  /** The row header's content: when it came. */
  received: ReactNode;
  afterReceived?: ReactNode;
  /** Buttons before Delete. */
  actions: ReactNode;
  /** Absent for someone who only reads the site: no Delete. */
  onDelete?: () => void;
}

function SubmissionRow({ submission, keys, received, afterReceived, actions, onDelete }: SubmissionRowProps) {
  const values = submission.data as Record<string, unknown>;
  return (
    <Table.Tr>
      <Table.Th scope="row" fw="normal" style={{ whiteSpace: 'nowrap' }}>
        {received}
      </Table.Th>
      {afterReceived}
      {keys.map((key) => (
        <Table.Td key={key} className={classes.value}>
          <WholeAddresses text={compactValue(values[key])} />
        </Table.Td>
      ))}
      <Table.Td>
        {submission.files.length === 0 ? '—' : submission.files.map((file) => decodeStoredText(file.name)).join(', ')}
      </Table.Td>
      <Table.Td>
        <RowActions onDelete={onDelete}>{actions}</RowActions>
      </Table.Td>
    </Table.Tr>
  );
}

interface SubmissionTableProps<Row extends ListedSubmission> {
  rows: readonly Row[];
  keys: string[];
  /** The empty state, shown instead of the table when set. */
  empty: ReactNode;
  minWidth: number;
  caption: string;
  pager: NewerOlderPagerProps;
  /** A column between Received and the data, with its header and each row's cell. */
  extraColumn?: { header: string; cell: (row: Row) => ReactNode };
  received: (row: Row) => ReactNode;
  actions: (row: Row) => ReactNode;
  /** After a row's submission was deleted (confirmed and notified). */
  onDeleted: () => void;
  /** Checkboxes for the bulk actions. */
  selection?: RowSelection;
}

export function SubmissionTable<Row extends ListedSubmission>({
  rows,
  keys,
  extraColumn,
  received,
  actions,
  onDeleted,
  selection,
  ...table
}: SubmissionTableProps<Row>) {
  const deletion = useDeleteSubmission(onDeleted);
  const canDelete = useCanManageSite();
  const allSelected = selection !== undefined && rows.length > 0 && selection.ids.length === rows.length;
  const selectAll =
    selection && rows.length > 0 ? (
      <Checkbox
        size="xs"
        aria-label="Select every submission on this page"
        checked={allSelected}
        indeterminate={selection.ids.length > 0 && !allSelected}
        onChange={(event) => selection.setAll(event.currentTarget.checked)}
      />
    ) : undefined;
  const withCheckbox = (row: Row, content: ReactNode) =>
    selection ? (
      <Group gap="xs" wrap="nowrap">
        <Checkbox
          size="xs"
          aria-label={`Select the submission of ${formatDateTime(row.createdAt)}`}
          checked={selection.isSelected(row.id)}
          onChange={(event) => selection.toggle(row.id, event.currentTarget.checked)}
        />
        {content}
      </Group>
    ) : (
      content
    );
  return (
    <>
      <PagedTable
        {...table}
        highlightOnHover
        columns={
          <SubmissionColumns
            keys={keys}
            selectAll={selectAll}
            afterReceived={extraColumn ? <Table.Th scope="col">{extraColumn.header}</Table.Th> : undefined}
          />
        }
      >
        {rows.map((row) => (
          <SubmissionRow
            key={row.id}
            submission={row}
            keys={keys}
            received={withCheckbox(row, received(row))}
            afterReceived={extraColumn ? <Table.Td>{extraColumn.cell(row)}</Table.Td> : undefined}
            actions={actions(row)}
            onDelete={canDelete ? () => deletion.ask({ id: row.id, fileCount: row.files.length }) : undefined}
          />
        ))}
      </PagedTable>
      {deletion.dialog}
    </>
  );
}
