// The team's members (docs/teams.md), for those who manage them: each with their role, status and
// site access; change role and site access, disable or enable, remove. What the signed-in member may
// not do is not offered (an admin sees no action on an owner); what the API still refuses (the last
// owner) is shown in its own words.
import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useMe } from '../../app/require-session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ListTable } from '../../components/list-table';
import { notifyError, notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { WholeAddresses } from '../../components/whole-addresses';
import {
  MembersDocument,
  RemoveMemberDocument,
  UpdateMemberDocument,
  type MemberFieldsFragment,
  type MemberStatus,
} from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { ROLE_LABELS, STATUS_LABELS } from '../../lib/roles';
import { AccessDialog } from './access-dialog';
import { assignableRoles, describeAccess, memberActions } from './member-rules';

const MEMBER_TYPENAMES = ['Member'];

const STATUS_COLORS: Record<MemberStatus, string> = {
  active: 'green',
  invited: 'blue',
  disabled: 'gray',
};

/** What a confirmation is about: disabling or removing one member. */
type Pending = { action: 'disable' | 'remove'; member: MemberFieldsFragment };

function displayName(member: MemberFieldsFragment): string {
  return decodeStoredText(member.name) || member.email;
}

interface MemberRowProps {
  member: MemberFieldsFragment;
  isYou: boolean;
  actions: ReturnType<typeof memberActions>;
  onChangeAccess: () => void;
  onDisable: () => void;
  onEnable: () => void;
  onRemove: () => void;
  enabling: boolean;
}

function MemberRow({
  member,
  isYou,
  actions,
  onChangeAccess,
  onDisable,
  onEnable,
  onRemove,
  enabling,
}: MemberRowProps) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw="normal">
        {decodeStoredText(member.name) || '—'}
        {isYou ? (
          <Text span size="sm" c="dimmed">
            {' '}
            (you)
          </Text>
        ) : null}
      </Table.Th>
      <Table.Td>
        <WholeAddresses text={member.email} />
      </Table.Td>
      <Table.Td>{ROLE_LABELS[member.role]}</Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLORS[member.status]} variant="dot" tt="none" w="max-content">
          {STATUS_LABELS[member.status]}
        </Badge>
      </Table.Td>
      <Table.Td>{describeAccess(member.role, member.grants, decodeStoredText)}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {actions.changeAccess ? (
            <Button size="xs" variant="default" onClick={onChangeAccess}>
              Change access
            </Button>
          ) : null}
          {actions.disable && member.status === 'active' ? (
            <Button size="xs" variant="default" onClick={onDisable}>
              Disable
            </Button>
          ) : null}
          {actions.disable && member.status === 'disabled' ? (
            <Button size="xs" variant="light" onClick={onEnable} loading={enabling}>
              Enable
            </Button>
          ) : null}
          {actions.remove ? (
            <Button size="xs" variant="light" color="red" onClick={onRemove}>
              Remove
            </Button>
          ) : null}
          {!actions.changeAccess && !actions.remove ? (
            <Text size="xs" c="dimmed">
              Only an owner changes an owner
            </Text>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function MembersPage() {
  const me = useMe();
  const context = useMemo(() => ({ additionalTypenames: MEMBER_TYPENAMES }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: MembersDocument, context });
  const [editing, setEditing] = useState<MemberFieldsFragment | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [enablingId, setEnablingId] = useState<string | null>(null);
  const [update, updateMember] = useMutation(UpdateMemberDocument);
  const [removal, removeMember] = useMutation(RemoveMemberDocument);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const sites = data?.sites ?? [];
  const roles = assignableRoles(me.role);

  const setStatus = async (member: MemberFieldsFragment, status: 'active' | 'disabled') => {
    const result = await updateMember({ id: member.id, input: { status } }, { additionalTypenames: MEMBER_TYPENAMES });
    const verb = status === 'active' ? 'enabled' : 'disabled';
    if (result.error || !result.data) {
      notifyError(result.error, `${displayName(member)} was not ${verb}`);
      return false;
    }
    notifySuccess(
      status === 'active'
        ? `${displayName(member)} enabled: they may sign in again`
        : `${displayName(member)} disabled: their sessions and tokens have ended`,
    );
    return true;
  };

  const confirm = async () => {
    if (!pending) {
      return;
    }
    const { action, member } = pending;
    if (action === 'disable') {
      await setStatus(member, 'disabled');
    } else {
      const result = await removeMember({ id: member.id }, { additionalTypenames: MEMBER_TYPENAMES });
      if (result.error) {
        notifyError(result.error, `${displayName(member)} was not removed`);
      } else {
        notifySuccess(
          result.data?.removeMember ? `${displayName(member)} removed` : `${displayName(member)} was already gone`,
        );
      }
    }
    setPending(null);
    reload();
  };

  return (
    <>
      <PageHeader title="Members" />
      <Text c="dimmed" mb="md" maw={760}>
        Everyone who signs in to this console. Owners and admins reach every site; a member only the sites granted to
        them, each to read or to manage. Disabling someone ends their sessions and API tokens at once.
      </Text>
      <ListTable
        items={data?.members}
        error={error}
        fetching={fetching}
        subject="members"
        row={(member) => (
          <MemberRow
            key={member.id}
            member={member}
            isYou={member.id === me.id}
            actions={memberActions(me, member)}
            onChangeAccess={() => setEditing(member)}
            onDisable={() => setPending({ action: 'disable', member })}
            onEnable={() => {
              setEnablingId(member.id);
              void setStatus(member, 'active').finally(() => setEnablingId(null));
            }}
            onRemove={() => setPending({ action: 'remove', member })}
            enabling={update.fetching && enablingId === member.id}
          />
        )}
        empty="No members."
        caption="The team's members, their role, status and site access"
        columns={['Name', 'Email', 'Role', 'Status', 'Site access', 'Actions']}
        minWidth={980}
      />

      {editing ? (
        <AccessDialog
          key={editing.id}
          member={editing}
          roles={roles}
          sites={sites}
          onClose={() => {
            setEditing(null);
            reload();
          }}
        />
      ) : null}
      <ConfirmDialog
        opened={pending !== null}
        title={pending ? `${pending.action === 'disable' ? 'Disable' : 'Remove'} ${displayName(pending.member)}?` : ''}
        confirmLabel={pending?.action === 'disable' ? 'Disable member' : 'Remove member'}
        onConfirm={() => void confirm()}
        onClose={() => setPending(null)}
        pending={update.fetching || removal.fetching}
      >
        {pending?.action === 'disable'
          ? 'They are signed out everywhere and their API tokens stop at once. You can enable them again later; their old sessions and tokens stay ended.'
          : 'They can no longer sign in, their site access is removed and their API tokens stop at once. What they did stays in the audit log under their name. This cannot be undone.'}
      </ConfirmDialog>
    </>
  );
}
