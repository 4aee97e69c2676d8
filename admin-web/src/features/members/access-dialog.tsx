// Change a member's role and site access. A refusal (the last owner) is the API's own message.
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { UpdateMemberDocument, type MemberFieldsFragment, type MemberRole } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { AccessFields, grantsOf, type AccessBySite } from './access-fields';

function accessOf(member: MemberFieldsFragment): AccessBySite {
  return Object.fromEntries(member.grants.map((grant) => [grant.site.id, grant.level]));
}

interface AccessDialogProps {
  member: MemberFieldsFragment;
  roles: readonly MemberRole[];
  sites: readonly { id: string; name: string }[];
  onClose: () => void;
}

/** Mounted for one member at a time (its state starts from theirs). */
export function AccessDialog({ member, roles, sites, onClose }: AccessDialogProps) {
  const [role, setRole] = useState<MemberRole>(member.role);
  const [access, setAccess] = useState<AccessBySite>(() => accessOf(member));
  const [{ fetching, error }, updateMember] = useMutation(UpdateMemberDocument);
  const who = decodeStoredText(member.name) || member.email;

  const save = async () => {
    const input = {
      ...(role !== member.role ? { role } : {}),
      ...(role === 'member' ? { grants: grantsOf(role, access) } : {}),
    };
    const result = await updateMember({ id: member.id, input }, { additionalTypenames: ['Member'] });
    if (result.data) {
      notifySuccess(`Access of ${who} saved`);
      onClose();
    }
  };

  return (
    <Modal opened onClose={onClose} title={`Change access of ${who}`} centered size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        noValidate
      >
        <Stack>
          <AccessFields
            roles={roles.includes(member.role) ? roles : [member.role, ...roles]}
            role={role}
            onRoleChange={setRole}
            sites={sites}
            access={access}
            onAccessChange={(siteId, level) => setAccess((current) => ({ ...current, [siteId]: level }))}
            grantsError={fieldErrors(error).grants}
          />
          <ErrorAlert error={error} fieldsShownElsewhere={['grants']} title="Access not changed" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Save access
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
