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
  SubmissionAssigneesDocument,
  SubmissionInboxStateDocument,
  type SubmissionStatus,
} from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';
import { useLiveRefresh } from '../../lib/live-updates';
import { useMe } from '../../lib/me';
import { STATUS_LABELS, STATUS_OPTIONS } from './status-labels';

// Only while live updates are down (live-updates.tsx).
const FALLBACK_POLL_MS = 5000;

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
      notifySuccess(`Status: ${STATUS_LABELS[status]}`);
    }
  };
  const changeAssignee = async (assigneeId: string | null) => {
    const result = await assign({ id: submissionId, assigneeId });
    if (result.error) {
      notifyError(result.error, 'The assignee was not changed');
    } else {
      const name = result.data?.assignSubmission.assignee?.name;
      notifySuccess(
        assigneeId === null ? 'Unassigned' : assigneeId === me.id ? 'Assigned to you' : `Assigned to ${name}`,
      );
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
            data={STATUS_OPTIONS}
            value={state.status}
            onChange={(event) => void changeStatus(event.currentTarget.value as SubmissionStatus)}
            maw={240}
          />
        ) : (
          <Text>
            Status: <strong>{STATUS_LABELS[state.status]}</strong>
          </Text>
        )}
        <Group gap="sm" align="flex-end">
          {canManage ? (
            <AssigneeChoice
              formId={formId}
              assigneeId={state.assignee?.id ?? null}
              onChange={(assigneeId) => void changeAssignee(assigneeId)}
            />
          ) : (
            <Text>
              Assignee: <strong>{state.assignee ? state.assignee.name : 'nobody'}</strong>
            </Text>
          )}
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

/** "Assignee": nobody, or anyone who can read the form's site (the API's list), for those who manage it. */
function AssigneeChoice({
  formId,
  assigneeId,
  onChange,
}: {
  formId: string;
  assigneeId: string | null;
  onChange: (assigneeId: string | null) => void;
}) {
  const [{ data }] = useQuery({ query: SubmissionAssigneesDocument, variables: { formId } });
  const options = [
    { value: '', label: 'Nobody' },
    ...(data?.submissionAssignees ?? []).map((member) => ({ value: member.id, label: member.name })),
  ];
  return (
    <NativeSelect
      label="Assignee"
      data={options}
      value={assigneeId ?? ''}
      onChange={(event) => onChange(event.currentTarget.value || null)}
      maw={280}
    />
  );
}
