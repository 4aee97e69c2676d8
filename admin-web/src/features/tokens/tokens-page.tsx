// API tokens for integrators: long-lived bearer tokens for /graphql. The secret is in the create
// answer only, so it is shown once, in a dialog, with a Copy button.
import { Alert, Button, Code, Group, Loader, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { ErrorAlert } from '../../components/error-alert';
import { notifyError, notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { graphql } from '../../gql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';

const ApiTokensQuery = graphql(`
  query ApiTokens {
    apiTokens {
      id
      name
      createdAt
      lastUsedAt
    }
  }
`);

const CreateApiTokenMutation = graphql(`
  mutation CreateApiToken($name: String!) {
    createApiToken(name: $name) {
      token
      apiToken {
        id
        name
        createdAt
        lastUsedAt
      }
    }
  }
`);

const RevokeApiTokenMutation = graphql(`
  mutation RevokeApiToken($id: ID!) {
    revokeApiToken(id: $id)
  }
`);

interface NamedToken {
  id: string;
  name: string;
}

function NewTokenDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (secret: string, name: string) => void;
}) {
  const [{ fetching, error }, createToken] = useMutation(CreateApiTokenMutation);
  const form = useForm({ mode: 'uncontrolled', initialValues: { name: '' } });
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
    const result = await createToken({ name }, { additionalTypenames: ['ApiToken'] });
    if (!result.data) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    close();
    onCreated(result.data.createApiToken.token, name);
  });
  return (
    <Modal opened={opened} onClose={close} title="New API token" centered>
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

export function TokensPage() {
  const context = useMemo(() => ({ additionalTypenames: ['ApiToken'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: ApiTokensQuery, context });
  const [revocation, revokeToken] = useMutation(RevokeApiTokenMutation);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ value: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<NamedToken | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const confirmRevoke = async () => {
    if (!revoking) {
      return;
    }
    const name = decodeStoredText(revoking.name);
    const result = await revokeToken({ id: revoking.id }, { additionalTypenames: ['ApiToken'] });
    if (result.error) {
      notifyError(result.error, `Token ${name} was not deleted`);
    } else {
      notifySuccess(`Token ${name} deleted: it no longer works`);
    }
    setRevoking(null);
    reload();
  };

  return (
    <>
      <PageHeader
        title="API tokens"
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New token
          </Button>
        }
      />
      <Text c="dimmed" mb="md" maw={760}>
        Tokens let your own programs use the admin API at /graphql with the header Authorization: Bearer followed by the
        token. Each acts as you; delete one and it stops working at once.
      </Text>
      <ErrorAlert error={data ? undefined : error} title="The tokens could not be loaded" />
      {!data && fetching ? <Loader aria-label="Loading tokens" /> : null}
      {data && data.apiTokens.length === 0 ? <Text c="dimmed">No API tokens.</Text> : null}
      {data && data.apiTokens.length > 0 ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="sm">
            <Table.Caption>API tokens that work now</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Created</Table.Th>
                <Table.Th scope="col">Last used</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.apiTokens.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Th scope="row" fw="normal">
                    {decodeStoredText(token.name)}
                  </Table.Th>
                  <Table.Td>{formatDateTime(token.createdAt)}</Table.Td>
                  <Table.Td>{formatDateTime(token.lastUsedAt, 'Never')}</Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="light" color="red" onClick={() => setRevoking(token)}>
                      Delete
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}

      <NewTokenDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(value, name) => {
          setSecret({ value, name });
          notifySuccess(`Token ${name} created`);
          reload();
        }}
      />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        opened={revoking !== null}
        title={`Delete token ${decodeStoredText(revoking?.name)}?`}
        confirmLabel="Delete token"
        pending={revocation.fetching}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(null)}
      >
        Programs that use it are refused at once. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
