// Invite someone by e-mail with a role and site access. The API sends the invitation through the
// outbox; without SMTP_URL nothing is sent and the answer carries the link instead, shown here with
// Copy for the inviter to pass on (docs/teams.md, Invitations).
import { Alert, Button, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { CopyButton } from '../../components/copy-button';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { InviteMemberDocument, type MemberRole } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { AccessFields, grantsOf, type AccessBySite } from './access-fields';

/** An invitation's link to hand over, when no e-mail was sent. */
export interface InvitationLink {
  email: string;
  link: string;
}

/** The link of an invitation that was not e-mailed, with Copy; what to do with it. */
export function InvitationLinkDialog({
  invitation,
  onClose,
}: {
  invitation: InvitationLink | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={invitation !== null} onClose={onClose} title="Invitation link" centered size="lg">
      {invitation ? (
        <Stack>
          <Alert color="yellow" role="status">
            No e-mail was sent: e-mail is not configured on this server (SMTP_URL is unset). Send this link to{' '}
            {invitation.email} yourself. It works once, for 72 hours.
          </Alert>
          <Code
            block
            aria-label="Invitation link"
            data-testid="invitation-link"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          >
            {invitation.link}
          </Code>
          <Group justify="space-between">
            <CopyButton value={invitation.link} />
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

interface InviteDialogProps {
  opened: boolean;
  roles: readonly MemberRole[];
  sites: readonly { id: string; name: string }[];
  onClose: () => void;
  /** After the invitation was made: its link when no e-mail was sent. */
  onInvited: (email: string, link: string | null) => void;
}

export function InviteDialog({ opened, roles, sites, onClose, onInvited }: InviteDialogProps) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('member');
  const [access, setAccess] = useState<AccessBySite>({});
  const [emailError, setEmailError] = useState<string | null>(null);
  const [{ fetching, error }, inviteMember] = useMutation(InviteMemberDocument);
  const errors = fieldErrors(error);

  const close = () => {
    setEmail('');
    setRole('member');
    setAccess({});
    setEmailError(null);
    onClose();
  };

  const submit = async () => {
    if (email.trim() === '') {
      setEmailError('Enter their e-mail address');
      return;
    }
    setEmailError(null);
    const result = await inviteMember(
      { input: { email, role, grants: grantsOf(role, access) } },
      { additionalTypenames: ['Member'] },
    );
    if (!result.data) {
      return;
    }
    const { member, link, emailSent } = result.data.inviteMember;
    if (emailSent) {
      notifySuccess(`Invitation sent to ${member.email}`);
    }
    onInvited(member.email, emailSent ? null : (link ?? null));
    close();
  };

  return (
    <Modal opened={opened} onClose={close} title="Invite member" centered size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Stack>
          <TextInput
            label="Email"
            type="email"
            required
            data-autofocus
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={emailError ?? errors.email}
          />
          <AccessFields
            roles={roles}
            role={role}
            onRoleChange={setRole}
            sites={sites}
            access={access}
            onAccessChange={(siteId, level) => setAccess((current) => ({ ...current, [siteId]: level }))}
            grantsError={errors.grants}
          />
          <Text size="sm" c="dimmed">
            They get a link to choose their name and password. It works once, for 72 hours.
          </Text>
          <ErrorAlert error={error} fieldsShownElsewhere={['email', 'grants']} title="Invitation not sent" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
