// The columns and rows the inbox and the Spam view share: when it came, one column per data key,
// its files and its actions, ending with Delete. Each view adds its own cells and buttons.
import { Button, Group, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { compactValue } from '../../lib/submission-values';

interface ListedSubmission {
  data: unknown;
  files: { name: string }[];
}

/** Received, then `afterReceived`, one column per data key, Files and Actions. */
export function SubmissionColumns({ keys, afterReceived }: { keys: string[]; afterReceived?: ReactNode }) {
  return (
    <>
      <Table.Th scope="col">Received</Table.Th>
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
  onDelete: () => void;
}

export function SubmissionRow({ submission, keys, received, afterReceived, actions, onDelete }: SubmissionRowProps) {
  const values = submission.data as Record<string, unknown>;
  return (
    <Table.Tr>
      <Table.Th scope="row" fw="normal" style={{ whiteSpace: 'nowrap' }}>
        {received}
      </Table.Th>
      {afterReceived}
      {keys.map((key) => (
        <Table.Td key={key} style={{ overflowWrap: 'anywhere' }}>
          {compactValue(values[key])}
        </Table.Td>
      ))}
      <Table.Td>
        {submission.files.length === 0 ? '—' : submission.files.map((file) => decodeStoredText(file.name)).join(', ')}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {actions}
          <Button size="xs" variant="light" color="red" onClick={onDelete}>
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
