// The bar above the inbox (or the Spam view) while rows are selected: what can be done to all of them
// at once, each after one confirmation that says how many. Reading is each member's own (Mark read,
// Mark unread); the rest needs `manage` on the site, as the API checks. Each call is one audit entry.
import { Button, Group, Menu, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useMutation, type AnyVariables, type CombinedError, type TypedDocumentNode } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { notifyOutcome } from '../../components/notify';
import { useCanManageSite } from '../../components/site-access';
import {
  BulkAssignDocument,
  BulkDeleteDocument,
  BulkMarkReadDocument,
  BulkMarkSpamDocument,
  BulkSetStatusDocument,
  type SubmissionStatus,
} from '../../gql/graphql';
import { useMe } from '../../lib/me';
import { STATUS_LABELS } from './status-labels';

interface BulkActionsProps {
  formId: string;
  /** The selected submissions, at most a page (20) of them. */
  ids: string[];
  /** The Spam view: Not spam and Delete only. */
  spam?: boolean;
  /** After an action: clear the selection and refresh the list. */
  onDone: () => void;
}

/** One confirmed action: its dialog's words and the call it makes. */
interface PendingAction {
  title: string;
  body: string;
  confirmLabel: string;
  done: string;
  danger: boolean;
  run: () => Promise<{ error?: CombinedError; data?: unknown }>;
}

const plural = (count: number) => (count === 1 ? '1 submission' : `${count} submissions`);
// Mutations that answer a count carry no typename: name what they change, so lists and counts refetch.
const CHANGES = { additionalTypenames: ['Submission', 'SubmissionStatusCounts'] };

function useBulkMutation<Data, Variables extends AnyVariables>(document: TypedDocumentNode<Data, Variables>) {
  const [state, execute] = useMutation(document);
  return [state.fetching, (variables: Variables) => execute(variables, CHANGES)] as const;
}

export function BulkActions({ formId, ids, spam = false, onDone }: BulkActionsProps) {
  const me = useMe();
  const canManage = useCanManageSite();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [settingStatus, setStatus] = useBulkMutation(BulkSetStatusDocument);
  const [assigning, assign] = useBulkMutation(BulkAssignDocument);
  const [marking, markRead] = useBulkMutation(BulkMarkReadDocument);
  const [spamming, markSpam] = useBulkMutation(BulkMarkSpamDocument);
  const [deleting, remove] = useBulkMutation(BulkDeleteDocument);
  const working = settingStatus || assigning || marking || spamming || deleting;
  const count = plural(ids.length);
  const selection = useMemo(() => ({ formId, ids }), [formId, ids]);

  const confirm = async () => {
    if (!pending) {
      return;
    }
    const result = await pending.run();
    if (notifyOutcome(result, `${pending.confirmLabel} did not work`, pending.done) !== undefined) {
      setPending(null);
      onDone();
    }
  };

  const ask = (action: Omit<PendingAction, 'danger'> & { danger?: boolean }) =>
    setPending({ danger: false, ...action });

  return (
    <Group role="toolbar" aria-label="Selected submissions" gap="xs" mb="sm" wrap="wrap">
      <Text size="sm" fw={500}>
        {count} selected
      </Text>
      {!spam && canManage ? (
        <Menu position="bottom-start">
          <Menu.Target>
            <Button size="xs" variant="light" rightSection={<IconChevronDown size={14} aria-hidden />}>
              Set status
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {(Object.entries(STATUS_LABELS) as [SubmissionStatus, string][]).map(([status, label]) => (
              <Menu.Item
                key={status}
                onClick={() =>
                  ask({
                    title: `Set ${count} to ${label}?`,
                    body:
                      status === 'archived' ? 'Archived submissions leave the default view.' : `Each becomes ${label}.`,
                    confirmLabel: `Set to ${label}`,
                    done: `${count} set to ${label}`,
                    run: () => setStatus({ ...selection, status }),
                  })
                }
              >
                {label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      ) : null}
      {!spam && canManage ? (
        <>
          <Button
            size="xs"
            variant="light"
            onClick={() =>
              ask({
                title: `Assign ${count} to you?`,
                body: 'Each is assigned to you, whoever had it before.',
                confirmLabel: 'Assign to me',
                done: `${count} assigned to you`,
                run: () => assign({ ...selection, assigneeId: me.id }),
              })
            }
          >
            Assign to me
          </Button>
          <Button
            size="xs"
            variant="light"
            onClick={() =>
              ask({
                title: `Unassign ${count}?`,
                body: 'Each is assigned to nobody.',
                confirmLabel: 'Unassign',
                done: `${count} unassigned`,
                run: () => assign({ ...selection, assigneeId: null }),
              })
            }
          >
            Unassign
          </Button>
        </>
      ) : null}
      {!spam
        ? ([true, false] as const).map((read) => (
            <Button
              key={String(read)}
              size="xs"
              variant="light"
              onClick={() =>
                ask({
                  title: `Mark ${count} ${read ? 'read' : 'unread'}?`,
                  body: 'For you only: read and unread are each member’s own.',
                  confirmLabel: read ? 'Mark read' : 'Mark unread',
                  done: `${count} marked ${read ? 'read' : 'unread'}`,
                  run: () => markRead({ ...selection, read }),
                })
              }
            >
              {read ? 'Mark read' : 'Mark unread'}
            </Button>
          ))
        : null}
      {canManage ? (
        <Button
          size="xs"
          variant="light"
          onClick={() =>
            ask(
              spam
                ? {
                    title: `Move ${count} to the inbox?`,
                    body: 'Each goes to the inbox, and its webhooks and e-mails are sent now.',
                    confirmLabel: 'Not spam',
                    done: `${count} moved to the inbox`,
                    run: () => markSpam({ ...selection, spam: false }),
                  }
                : {
                    title: `Mark ${count} as spam?`,
                    body: 'Each moves to the Spam view (deleted after 30 days there). Deliveries already sent are not undone.',
                    confirmLabel: 'Mark as spam',
                    done: `${count} marked as spam`,
                    danger: true,
                    run: () => markSpam({ ...selection, spam: true }),
                  },
            )
          }
        >
          {spam ? 'Not spam' : 'Mark as spam'}
        </Button>
      ) : null}
      {canManage ? (
        <Button
          size="xs"
          variant="light"
          color="red"
          onClick={() =>
            ask({
              title: `Delete ${count}?`,
              body: 'Each is deleted with its files and deliveries. This cannot be undone.',
              confirmLabel: `Delete ${count}`,
              done: `${count} deleted`,
              danger: true,
              run: () => remove(selection),
            })
          }
        >
          Delete
        </Button>
      ) : null}
      <ConfirmDialog
        opened={pending !== null}
        title={pending?.title ?? ''}
        confirmLabel={pending?.confirmLabel ?? ''}
        onConfirm={() => void confirm()}
        onClose={() => setPending(null)}
        pending={working}
        danger={pending?.danger ?? false}
      >
        {pending?.body}
      </ConfirmDialog>
    </Group>
  );
}
