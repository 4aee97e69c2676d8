// A submission's inbox state on its page: status, assignee and the team's internal notes. Those who
// manage the site change them; readers see them. Opening the page marks it read for the member.
import { Button, Group, NativeSelect, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { notifyError, notifySuccess } from '../../components/notify';
import { useCanManageSite } from '../../components/site-access';
import {
  AddSubmissionNoteDocument,
  AssignSubmissionDocument,
  MarkSubmissionReadDocument,
  SetSubmissionStatusDocument,
  SubmissionInboxStateDocument,
  type SubmissionStatus,
} from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';
import { useLiveRefresh } from '../../lib/live-updates';
import { useMe } from '../../lib/me';

// Only while live updates are down (live-updates.tsx).
const FALLBACK_POLL_MS = 5000;

const STATUSES: { value: SubmissionStatus; label: string }[] = [
  { value: 'new', label: 'New' },
  { value: 'open', label: 'Open' },
  { value: 'done', label: 'Done' },
  { value: 'archived', label: 'Archived' },
];

function NoteForm({ submissionId }: { submissionId: string }) {
  const [text, setText] = useState('');
  const [adding, addNote] = useMutation(AddSubmissionNoteDocument);
  const submit = async () => {
    const result = await addNote({ id: submissionId, text });
    if (result.error) {
      notifyError(result.error, 'The note was not added');
      return;
    }
    setText('');
    notifySuccess('Note added');
  };
  return (
    <Stack gap="xs">
      <Textarea
        label="Note"
        description="Internal: seen by the team only, never sent to webhooks."
        autosize
        minRows={2}
        maxLength={5000}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      <Group>
        <Button onClick={submit} loading={adding.fetching} disabled={text.trim() === ''}>
          Add note
        </Button>
      </Group>
    </Stack>
  );
}

export function InboxStateSection({ submissionId, formId }: { submissionId: string; formId: string }) {
  const me = useMe();
  const canManage = useCanManageSite();
  const [{ data }, refetch] = useQuery({ query: SubmissionInboxStateDocument, variables: { id: submissionId } });
  // Another member's status, assignment or note shows at once (live-updates.tsx).
  useLiveRefresh(() => refetch({ requestPolicy: 'network-only' }), { submissionId }, FALLBACK_POLL_MS);
  const [, setStatus] = useMutation(SetSubmissionStatusDocument);
  const [assigning, assign] = useMutation(AssignSubmissionDocument);
  const [, markRead] = useMutation(MarkSubmissionReadDocument);
  const state = data?.submission ?? null;
  const unread = state !== null && !state.read;

  useEffect(() => {
    if (unread) {
      void markRead({ formId, id: submissionId }, { additionalTypenames: ['Submission'] });
    }
  }, [unread, formId, submissionId, markRead]);

  if (state === null) {
    return null;
  }
  const changeStatus = async (status: SubmissionStatus) => {
    const result = await setStatus({ id: submissionId, status });
    if (result.error) {
      notifyError(result.error, 'The status was not changed');
    } else {
      notifySuccess(`Status: ${STATUSES.find((entry) => entry.value === status)?.label ?? status}`);
    }
  };
  const changeAssignee = async (assigneeId: string | null) => {
    const result = await assign({ id: submissionId, assigneeId });
    if (result.error) {
      notifyError(result.error, 'The assignee was not changed');
    } else {
      notifySuccess(assigneeId === null ? 'Unassigned' : 'Assigned to you');
    }
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="inbox-state-title">
      <Title order={2} size="h4" id="inbox-state-title" mb="sm">
        Status and notes
      </Title>
      <Stack gap="md">
        {canManage ? (
          <NativeSelect
            label="Status"
            data={STATUSES}
            value={state.status}
            onChange={(event) => void changeStatus(event.currentTarget.value as SubmissionStatus)}
            maw={240}
          />
        ) : (
          <Text>
            Status: <strong>{STATUSES.find((entry) => entry.value === state.status)?.label}</strong>
          </Text>
        )}
        <Group gap="sm">
          <Text>
            Assignee: <strong>{state.assignee ? state.assignee.name : 'nobody'}</strong>
          </Text>
          {canManage && state.assignee?.id !== me.id ? (
            <Button size="xs" variant="light" loading={assigning.fetching} onClick={() => changeAssignee(me.id)}>
              Assign to me
            </Button>
          ) : null}
          {canManage && state.assignee ? (
            <Button size="xs" variant="subtle" loading={assigning.fetching} onClick={() => changeAssignee(null)}>
              Unassign
            </Button>
          ) : null}
        </Group>
        <Stack gap="xs" component="ul" aria-label="Notes" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {state.notes.length === 0 ? (
            <Text component="li" c="dimmed">
              No notes yet.
            </Text>
          ) : (
            state.notes.map((note) => (
              <li key={note.id}>
                <Text size="sm" c="dimmed">
                  {note.author ? note.author.name : 'A former member'}, {formatDateTime(note.createdAt)}
                </Text>
                <Text style={{ whiteSpace: 'pre-wrap' }}>{decodeStoredText(note.text)}</Text>
              </li>
            ))
          )}
        </Stack>
        {canManage ? <NoteForm submissionId={submissionId} /> : null}
      </Stack>
    </Paper>
  );
}
