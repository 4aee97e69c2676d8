// API tokens for integrators: long-lived bearer tokens for /graphql. The secret is in the create
// answer only, so it is shown once, in a dialog, with a Copy button.
import { Alert, Button, Code, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { CopyButton } from '../../components/copy-button';
import { CreateNamedDialog } from '../../components/create-named-dialog';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { DeleteButton } from '../../components/row-actions';
import { NewButton } from '../../components/new-button';
import { ListTable } from '../../components/list-table';
import { useDeleteNamed } from '../../components/use-delete-named';
import {
  ApiTokensDocument,
  CreateApiTokenDocument,
  RevokeApiTokenDocument,
  type ApiTokenFieldsFragment,
} from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';

function NewTokenDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (secret: string, name: string) => void;
}) {
  const [{ fetching, error }, createToken] = useMutation(CreateApiTokenDocument);
  const create = async (name: string) => {
    const result = await createToken({ name }, { additionalTypenames: ['ApiToken'] });
    if (!result.data) {
      return { created: false, error: result.error };
    }
    onCreated(result.data.createApiToken.token, name);
    return { created: true };
  };
  return (
    <CreateNamedDialog
      opened={opened}
      onClose={onClose}
      title="New API token"
      description="Who or what uses it, e.g. the CRM import"
      submitLabel="Create token"
      fetching={fetching}
      error={error}
      create={create}
    />
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

function TokenRow({ token, onDelete }: { token: ApiTokenFieldsFragment; onDelete: () => void }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw="normal">
        {decodeStoredText(token.name)}
      </Table.Th>
      <Table.Td>{formatDateTime(token.createdAt)}</Table.Td>
      <Table.Td>{formatDateTime(token.lastUsedAt, 'Never')}</Table.Td>
      <Table.Td>
        <DeleteButton onClick={onDelete} />
      </Table.Td>
    </Table.Tr>
  );
}

export function TokensPage() {
  const context = useMemo(() => ({ additionalTypenames: ['ApiToken'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({ query: ApiTokensDocument, context });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ value: string; name: string } | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const revocation = useDeleteNamed({
    mutation: RevokeApiTokenDocument,
    additionalTypenames: ['ApiToken'],
    noun: 'Token',
    deletedNote: ': it no longer works',
    consequences: 'Programs that use it are refused at once. This cannot be undone.',
    onDone: reload,
  });

  return (
    <>
      <PageHeader title="API tokens" actions={<NewButton onClick={() => setCreating(true)}>New token</NewButton>} />
      <Text c="dimmed" mb="md" maw={760}>
        Tokens let your own programs use the admin API at /graphql with the header Authorization: Bearer followed by the
        token. Each acts as you; delete one and it stops working at once.
      </Text>
      <ListTable
        items={data?.apiTokens}
        error={error}
        fetching={fetching}
        subject="tokens"
        row={(token) => <TokenRow key={token.id} token={token} onDelete={() => revocation.ask(token)} />}
        empty="No API tokens."
        caption="API tokens that work now"
        columns={['Name', 'Created', 'Last used', 'Actions']}
        minWidth={560}
      />

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
      {revocation.dialog}
    </>
  );
}
