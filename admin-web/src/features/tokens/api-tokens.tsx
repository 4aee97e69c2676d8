// API tokens, as the API tokens page (every token the member reaches) and each member's account page
// (their own) show them: the list with each token's level, sites and end (a week before the end it
// is marked), the New API token dialog and the dialog that shows the secret once.
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  NativeSelect,
  Radio,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState, type ReactNode } from 'react';
import { useMutation, type CombinedError } from 'urql';
import {
  CreateApiTokenDocument,
  RevokeApiTokenDocument,
  type ApiTokenFieldsFragment,
  type ApiTokenLevel,
  type MemberRole,
} from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';
import { endWarning } from '../../lib/token-ends';
import { CopyButton } from '../../components/copy-button';
import { ErrorAlert } from '../../components/error-alert';
import { ListTable } from '../../components/list-table';
import { notifySuccess } from '../../components/notify';
import { DeleteButton } from '../../components/row-actions';
import { useDeleteNamed } from '../../components/use-delete-named';

const LEVELS: { value: ApiTokenLevel; label: string; description: string }[] = [
  { value: 'READ', label: 'Read', description: 'Reads sites, forms and submissions; changes nothing.' },
  { value: 'MANAGE', label: 'Manage', description: 'Also changes sites, forms, webhooks and submissions.' },
  { value: 'ADMIN', label: 'Admin', description: 'Everything your role allows.' },
];

const ENDS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
];
const NEVER = 'never';

interface Site {
  id: string;
  name: string;
}

/** The name, level, sites and end of a new token; what the member's role cannot use is not offered. */
function NewTokenDialog({
  opened,
  onClose,
  onCreated,
  sites,
  role,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (secret: string, name: string) => void;
  sites: readonly Site[];
  role: MemberRole;
}) {
  const [{ fetching, error }, createToken] = useMutation(CreateApiTokenDocument);
  const defaultLevel: ApiTokenLevel = role === 'member' ? 'MANAGE' : 'ADMIN';
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', level: defaultLevel, siteIds: [] as string[], ends: '90' },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    const name = values.name.trim();
    if (name === '') {
      form.setFieldError('name', 'Enter a name');
      return;
    }
    const scope = {
      level: values.level,
      siteIds: values.siteIds.length === 0 ? null : values.siteIds,
      ...(values.ends === NEVER ? { noExpiry: true } : { expiresInDays: Number(values.ends) }),
    };
    const result = await createToken({ name, scope }, { additionalTypenames: ['ApiToken'] });
    if (!result.data) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    onCreated(result.data.createApiToken.token, name);
    close();
  });
  const levels = role === 'member' ? LEVELS.filter((level) => level.value !== 'ADMIN') : LEVELS;
  const ends = role === 'owner' ? [...ENDS, { value: NEVER, label: 'Never' }] : ENDS;
  return (
    <Modal opened={opened} onClose={close} title="New API token" centered size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description="Who or what uses it, e.g. the CRM import"
            required
            data-autofocus
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <Radio.Group label="Level" key={form.key('level')} {...form.getInputProps('level')}>
            <Stack gap="xs" mt="xs">
              {levels.map((level) => (
                <Radio key={level.value} value={level.value} label={level.label} description={level.description} />
              ))}
            </Stack>
          </Radio.Group>
          {sites.length > 0 ? (
            <Checkbox.Group
              label="Sites"
              description="Tick the only sites it may reach; none ticked: every site you may see."
              key={form.key('siteIds')}
              {...form.getInputProps('siteIds')}
            >
              <Stack gap="xs" mt="xs">
                {sites.map((site) => (
                  <Checkbox key={site.id} value={site.id} label={decodeStoredText(site.name)} />
                ))}
              </Stack>
            </Checkbox.Group>
          ) : null}
          <NativeSelect label="Expires after" data={ends} key={form.key('ends')} {...form.getInputProps('ends')} />
          <ErrorAlert error={error} fieldsShownElsewhere={['name']} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Create token
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function SecretDialog({ secret, onClose }: { secret: { value: string; name: string } | null; onClose: () => void }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Your new API token" centered size="lg">
      {secret ? (
        <Stack>
          <Alert color="yellow" role="status">
            Copy the token for {secret.name} now: it is shown this once and cannot be shown again.
          </Alert>
          <Text size="sm">Send it as the header Authorization: Bearer followed by the token.</Text>
          <Code block aria-label="API token" data-testid="api-token-secret">
            {secret.value}
          </Code>
          <Group justify="space-between">
            <CopyButton value={secret.value} />
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

const LEVEL_LABELS: Record<ApiTokenLevel, string> = {
  READ: 'Read',
  MANAGE: 'Manage',
  ADMIN: 'Admin',
};

/** The names of a token's sites; a site that is gone (or no longer visible) is counted, not named. */
function siteNames(siteIds: readonly string[] | null | undefined, sites: readonly Site[]): string {
  if (!siteIds) {
    return 'Every site';
  }
  const names = siteIds.flatMap((id) => {
    const site = sites.find((candidate) => candidate.id === id);
    return site ? [decodeStoredText(site.name)] : [];
  });
  const gone = siteIds.length - names.length;
  return [...names, ...(gone > 0 ? [`${gone} other site${gone === 1 ? '' : 's'}`] : [])].join(', ');
}

function TokenRow({
  token,
  sites,
  onDelete,
}: {
  token: ApiTokenFieldsFragment;
  sites: readonly Site[];
  onDelete: () => void;
}) {
  const warning = endWarning(token.expiresAt);
  return (
    <Table.Tr>
      <Table.Th scope="row" fw="normal">
        {decodeStoredText(token.name)}
      </Table.Th>
      <Table.Td>{LEVEL_LABELS[token.level]}</Table.Td>
      <Table.Td>{siteNames(token.siteIds, sites)}</Table.Td>
      <Table.Td>{formatDateTime(token.createdAt)}</Table.Td>
      <Table.Td>{formatDateTime(token.lastUsedAt, 'Never')}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text span size="sm">
            {formatDateTime(token.expiresAt, 'Never')}
          </Text>
          {warning ? (
            <Badge color={warning === 'Expired' ? 'red' : 'orange'} variant="dot" tt="none">
              {warning}
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td>
        <DeleteButton onClick={onDelete} />
      </Table.Td>
    </Table.Tr>
  );
}

export const API_TOKEN_TYPENAMES = ['ApiToken'];

interface ApiTokenListProps {
  tokens: readonly ApiTokenFieldsFragment[] | undefined;
  sites: readonly Site[];
  error: CombinedError | undefined;
  fetching: boolean;
  caption: string;
  onDelete: (token: ApiTokenFieldsFragment) => void;
}

/** The tokens, each with its level, sites, dates and end (marked within a week), and Delete. */
export function ApiTokenList({ tokens, sites, error, fetching, caption, onDelete }: ApiTokenListProps) {
  return (
    <ListTable
      items={tokens}
      error={error}
      fetching={fetching}
      subject="tokens"
      row={(token) => <TokenRow key={token.id} token={token} sites={sites} onDelete={() => onDelete(token)} />}
      empty="No API tokens."
      caption={caption}
      columns={['Name', 'Level', 'Sites', 'Created', 'Last used', 'Expires', 'Actions']}
      minWidth={900}
    />
  );
}

/**
 * What a token list needs besides the list: `create()` opens the New API token dialog, `revoke(token)`
 * asks before deleting one, `dialogs` goes in the page. `role` is null until it is known (the level a
 * new token starts with depends on it).
 */
export function useApiTokenActions({
  sites,
  role,
  reload,
}: {
  sites: readonly Site[];
  role: MemberRole | null;
  reload: () => void;
}): { create: () => void; revoke: (token: ApiTokenFieldsFragment) => void; dialogs: ReactNode } {
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ value: string; name: string } | null>(null);
  const revocation = useDeleteNamed({
    mutation: RevokeApiTokenDocument,
    additionalTypenames: API_TOKEN_TYPENAMES,
    noun: 'Token',
    deletedNote: ': it no longer works',
    consequences: 'Programs that use it are refused at once. This cannot be undone.',
    onDone: reload,
  });
  const dialogs = (
    <>
      {role ? (
        <NewTokenDialog
          opened={creating}
          onClose={() => setCreating(false)}
          sites={sites}
          role={role}
          onCreated={(value, name) => {
            setSecret({ value, name });
            notifySuccess(`Token ${name} created`);
            reload();
          }}
        />
      ) : null}
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      {revocation.dialog}
    </>
  );
  return { create: () => setCreating(true), revoke: revocation.ask, dialogs };
}
