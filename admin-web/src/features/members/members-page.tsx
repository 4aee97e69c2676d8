// The team's members (docs/teams.md), for those who manage them: each with their role, status and
// site access; invite by e-mail (or by a link to copy without SMTP), resend or revoke an invitation,
// change role and site access, disable or enable, remove; send a password reset link or reset the
// second factor of someone below them (docs/sign-in.md); an owner unlinks a member's single
// sign-on account (docs/single-sign-on.md). What the signed-in member may
// not do is not offered (an admin sees no action on an owner); what the API still refuses (the last
// owner) is shown in its own words.
import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { useMe } from '../../lib/me';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ListTable } from '../../components/list-table';
import { notifyError, notifySuccess } from '../../components/notify';
import { NewButton } from '../../components/new-button';
import { PageHeader } from '../../components/page-header';
import { WholeAddresses } from '../../components/whole-addresses';
import {
  MembersDocument,
  RemoveMemberDocument,
  ResendInvitationDocument,
  ResetMemberPasswordDocument,
  ResetMemberTwoFactorDocument,
  RevokeInvitationDocument,
  UnlinkSsoAccountDocument,
  UpdateMemberDocument,
  type MemberFieldsFragment,
  type MemberStatus,
} from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { ROLE_LABELS, STATUS_LABELS } from '../../lib/roles';
import { AccessDialog } from './access-dialog';
import { InvitationLinkDialog, InviteDialog, type InvitationLink } from './invite-dialog';
import { assignableRoles, canResetSignIn, describeAccess, memberActions } from './member-rules';
import { ResetLinkDialog, type ResetLink } from './reset-link-dialog';
import { SignInPolicyCard } from './sign-in-policy-card';
import { SsoPolicyCard } from './sso-policy-card';

const MEMBER_TYPENAMES = ['Member'];

const STATUS_COLORS: Record<MemberStatus, string> = {
  active: 'green',
  invited: 'blue',
  disabled: 'gray',
};

/** What a confirmation is about: disabling or removing one member, revoking their invitation, unlinking their single sign-on. */
type Pending = {
  action: 'disable' | 'remove' | 'revoke' | 'unlinkSso' | 'resetPassword' | 'resetTwoFactor';
  member: MemberFieldsFragment;
};

const CONFIRMATIONS: Record<Pending['action'], { title: (who: string) => string; label: string; text: string }> = {
  disable: {
    title: (who) => `Disable ${who}?`,
    label: 'Disable member',
    text: 'They are signed out everywhere and their API tokens stop at once. You can enable them again later; their old sessions and tokens stay ended.',
  },
  remove: {
    title: (who) => `Remove ${who}?`,
    label: 'Remove member',
    text: 'They can no longer sign in, their site access is removed and their API tokens stop at once. What they did stays in the audit log under their name. This cannot be undone.',
  },
  revoke: {
    title: (who) => `Revoke the invitation of ${who}?`,
    label: 'Revoke invitation',
    text: 'Their invitation link stops working at once and they are taken off the list. You can invite them again later.',
  },
  resetPassword: {
    title: (who) => `Send ${who} a password reset link?`,
    label: 'Send reset link',
    text: 'They get a link that works once, for 30 minutes, to choose a new password (by e-mail, or for you to hand over when this server sends none). Their password holds until they use it; their second factor stays as it is.',
  },
  resetTwoFactor: {
    title: (who) => `Reset the two-factor sign-in of ${who}?`,
    label: 'Reset two-factor',
    text: 'Their authenticator app, recovery codes and passkeys stop working at once: they sign in with their password alone, or, when the team requires two-factor sign-in, set it up again before anything else. Do this when they lost their phone and their recovery codes, after checking it is them who asks.',
  },
  unlinkSso: {
    title: (who) => `Unlink the single sign-on account of ${who}?`,
    label: 'Unlink single sign-on',
    text: 'Only the account at the identity provider they first signed in with may sign in as them. Unlinked, the next account that signs in with their verified e-mail address is linked instead. Do this when their account at the provider was replaced.',
  },
};

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
  onResend: () => void;
  onRevoke: () => void;
  onUnlinkSso: () => void;
  onResetPassword: () => void;
  onResetTwoFactor: () => void;
  canReset: boolean;
  enabling: boolean;
  resending: boolean;
}

function MemberRow({
  member,
  isYou,
  actions,
  onChangeAccess,
  onDisable,
  onEnable,
  onRemove,
  onResend,
  onRevoke,
  onUnlinkSso,
  onResetPassword,
  onResetTwoFactor,
  canReset,
  enabling,
  resending,
}: MemberRowProps) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw="normal">
        {displayName(member)}
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
        {member.status === 'invited' && member.invitationExpiresAt ? (
          <Text size="xs" c="dimmed" mt={4} style={{ whiteSpace: 'nowrap' }}>
            Link valid until {formatDateTime(member.invitationExpiresAt)}
          </Text>
        ) : null}
        {member.ssoLinked ? (
          <Text size="xs" c="dimmed" mt={4} style={{ whiteSpace: 'nowrap' }}>
            Linked to single sign-on
          </Text>
        ) : null}
        {member.status === 'active' ? (
          <Text size="xs" c="dimmed" mt={4} style={{ whiteSpace: 'nowrap' }}>
            {member.secondFactor ? 'Two-factor on' : 'No second factor'}
          </Text>
        ) : null}
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
          {actions.invitation ? (
            <>
              <Button size="xs" variant="default" onClick={onResend} loading={resending}>
                Resend invitation
              </Button>
              <Button size="xs" variant="light" color="red" onClick={onRevoke}>
                Revoke invitation
              </Button>
            </>
          ) : null}
          {canReset ? (
            <Button size="xs" variant="default" onClick={onResetPassword}>
              Reset password
            </Button>
          ) : null}
          {canReset && member.secondFactor ? (
            <Button size="xs" variant="default" onClick={onResetTwoFactor}>
              Reset two-factor
            </Button>
          ) : null}
          {actions.unlinkSso ? (
            <Button size="xs" variant="default" onClick={onUnlinkSso}>
              Unlink single sign-on
            </Button>
          ) : null}
          {actions.remove ? (
            <Button size="xs" variant="light" color="red" onClick={onRemove}>
              Remove
            </Button>
          ) : null}
          {isYou ? (
            <Anchor component={Link} to={paths.account} size="sm">
              Your account
            </Anchor>
          ) : null}
          {!isYou && !actions.changeAccess && !actions.remove ? (
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
  const [inviting, setInviting] = useState(false);
  const [invitation, setInvitation] = useState<InvitationLink | null>(null);
  const [resendingId, setResendingId] = useState<string | null>(null);
  const [resend, resendInvitation] = useMutation(ResendInvitationDocument);
  const [revocation, revokeInvitation] = useMutation(RevokeInvitationDocument);
  const [update, updateMember] = useMutation(UpdateMemberDocument);
  const [removal, removeMember] = useMutation(RemoveMemberDocument);
  const [unlinking, unlinkSsoAccount] = useMutation(UnlinkSsoAccountDocument);
  const [passwordReset, resetMemberPassword] = useMutation(ResetMemberPasswordDocument);
  const [twoFactorReset, resetMemberTwoFactor] = useMutation(ResetMemberTwoFactorDocument);
  const [resetLink, setResetLink] = useState<ResetLink | null>(null);
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

  /** After an invitation was made or sent again: its link when no e-mail went out. */
  const invited = (email: string, link: string | null) => {
    if (link !== null) {
      setInvitation({ email, link });
    }
    reload();
  };

  const resendTo = async (member: MemberFieldsFragment) => {
    setResendingId(member.id);
    const result = await resendInvitation({ id: member.id }, { additionalTypenames: MEMBER_TYPENAMES });
    setResendingId(null);
    if (result.error || !result.data) {
      notifyError(result.error, `The invitation of ${member.email} was not sent again`);
      return;
    }
    const { emailSent, link } = result.data.resendInvitation;
    if (emailSent) {
      notifySuccess(`Invitation sent again to ${member.email}: the link before no longer works`);
    }
    invited(member.email, emailSent ? null : (link ?? null));
  };

  const confirm = async () => {
    if (!pending) {
      return;
    }
    const { action, member } = pending;
    if (action === 'disable') {
      await setStatus(member, 'disabled');
    } else if (action === 'revoke') {
      const result = await revokeInvitation({ id: member.id }, { additionalTypenames: MEMBER_TYPENAMES });
      if (result.error) {
        notifyError(result.error, `The invitation of ${member.email} was not revoked`);
      } else {
        notifySuccess(`Invitation of ${member.email} revoked`);
      }
    } else if (action === 'resetPassword') {
      const result = await resetMemberPassword({ id: member.id }, { additionalTypenames: MEMBER_TYPENAMES });
      const sent = result.data?.resetMemberPassword;
      if (result.error || !sent) {
        notifyError(result.error, `No reset link was made for ${displayName(member)}`);
      } else if (sent.emailSent || sent.link === null || sent.link === undefined) {
        notifySuccess(`Reset link sent to ${member.email}: it works once, for 30 minutes`);
      } else {
        setResetLink({ who: displayName(member), link: sent.link });
      }
    } else if (action === 'resetTwoFactor') {
      const result = await resetMemberTwoFactor({ id: member.id }, { additionalTypenames: MEMBER_TYPENAMES });
      if (result.error) {
        notifyError(result.error, `The two-factor sign-in of ${displayName(member)} was not reset`);
      } else {
        notifySuccess(`${displayName(member)} signs in with their password alone until they set up a second factor`);
      }
    } else if (action === 'unlinkSso') {
      const result = await unlinkSsoAccount({ id: member.id }, { additionalTypenames: MEMBER_TYPENAMES });
      if (result.error) {
        notifyError(result.error, `The single sign-on account of ${displayName(member)} was not unlinked`);
      } else {
        notifySuccess(`${displayName(member)} unlinked: the next account to sign in with their e-mail is linked`);
      }
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
      <PageHeader
        title="Members"
        help="members"
        actions={<NewButton onClick={() => setInviting(true)}>Invite member</NewButton>}
      />
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
            onResend={() => void resendTo(member)}
            onRevoke={() => setPending({ action: 'revoke', member })}
            onUnlinkSso={() => setPending({ action: 'unlinkSso', member })}
            onResetPassword={() => setPending({ action: 'resetPassword', member })}
            onResetTwoFactor={() => setPending({ action: 'resetTwoFactor', member })}
            canReset={canResetSignIn(me, member)}
            enabling={update.fetching && enablingId === member.id}
            resending={resend.fetching && resendingId === member.id}
          />
        )}
        empty="No members."
        caption="The team's members, their role, status and site access"
        columns={['Name', 'Email', 'Role', 'Status', 'Site access', 'Actions']}
        minWidth={1100}
      />
      {/* Owners only (each card hides itself for anyone else): how the team signs in. */}
      <SignInPolicyCard />
      <SsoPolicyCard />

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
      <InviteDialog
        opened={inviting}
        roles={roles}
        sites={sites}
        onClose={() => setInviting(false)}
        onInvited={invited}
      />
      <InvitationLinkDialog invitation={invitation} onClose={() => setInvitation(null)} />
      <ResetLinkDialog reset={resetLink} onClose={() => setResetLink(null)} />
      <ConfirmDialog
        opened={pending !== null}
        title={
          pending
            ? CONFIRMATIONS[pending.action].title(
                pending.action === 'revoke' ? pending.member.email : displayName(pending.member),
              )
            : ''
        }
        confirmLabel={pending ? CONFIRMATIONS[pending.action].label : ''}
        onConfirm={() => void confirm()}
        onClose={() => setPending(null)}
        pending={
          update.fetching ||
          removal.fetching ||
          revocation.fetching ||
          unlinking.fetching ||
          passwordReset.fetching ||
          twoFactorReset.fetching
        }
      >
        {pending ? CONFIRMATIONS[pending.action].text : null}
      </ConfirmDialog>
    </>
  );
}
