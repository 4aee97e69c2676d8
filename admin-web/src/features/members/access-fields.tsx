// A member's role and, for role member, their access to each site (none, read or manage): the fields
// of the Change access dialog and of the invitation. Only the roles the signed-in member may give are
// offered.
import { NativeSelect, Radio, Stack, Text } from '@mantine/core';
import type { MemberRole, SiteGrantInput, SiteGrantLevel } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '../../lib/roles';

export type SiteAccess = SiteGrantLevel | 'none';

/** Site id → access; a site absent from the record has none. */
export type AccessBySite = Record<string, SiteAccess>;

const ACCESS_OPTIONS: { value: SiteAccess; label: string }[] = [
  { value: 'none', label: 'No access' },
  { value: 'read', label: 'Read' },
  { value: 'manage', label: 'Manage' },
];

/** The grants to send for a role and its site access: none unless the role is member. */
export function grantsOf(role: MemberRole, access: AccessBySite): SiteGrantInput[] {
  if (role !== 'member') {
    return [];
  }
  return Object.entries(access).flatMap(([siteId, level]) => (level === 'none' ? [] : [{ siteId, level }]));
}

interface AccessFieldsProps {
  roles: readonly MemberRole[];
  role: MemberRole;
  onRoleChange: (role: MemberRole) => void;
  sites: readonly { id: string; name: string }[];
  access: AccessBySite;
  onAccessChange: (siteId: string, access: SiteAccess) => void;
  /** The API's message about the grants, if it refused them. */
  grantsError?: string;
}

export function AccessFields({
  roles,
  role,
  onRoleChange,
  sites,
  access,
  onAccessChange,
  grantsError,
}: AccessFieldsProps) {
  return (
    <Stack>
      <Radio.Group label="Role" value={role} onChange={(value) => onRoleChange(value as MemberRole)}>
        <Stack gap="xs" mt="xs">
          {roles.map((value) => (
            <Radio key={value} value={value} label={ROLE_LABELS[value]} description={ROLE_DESCRIPTIONS[value]} />
          ))}
        </Stack>
      </Radio.Group>
      {role === 'member' ? (
        <Stack gap="xs" role="group" aria-labelledby="site-access-label">
          <Text size="sm" fw={500} id="site-access-label">
            Site access
          </Text>
          {sites.length === 0 ? (
            <Text size="sm" c="dimmed">
              There are no sites yet: create one, then grant it.
            </Text>
          ) : (
            sites.map((site) => (
              <NativeSelect
                key={site.id}
                label={decodeStoredText(site.name)}
                data={ACCESS_OPTIONS}
                value={access[site.id] ?? 'none'}
                onChange={(event) => onAccessChange(site.id, event.currentTarget.value as SiteAccess)}
              />
            ))
          )}
          {grantsError ? (
            <Text size="sm" c="red" role="alert">
              {grantsError}
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          An {ROLE_LABELS[role].toLowerCase()} reaches every site.
        </Text>
      )}
    </Stack>
  );
}
