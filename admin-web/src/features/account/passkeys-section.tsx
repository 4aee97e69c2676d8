// The account page's passkeys: the member's own, each with its name, when it was added and last
// signed in, and whether it is synced (copied to their other devices by a password manager or a
// platform account). Added here (add-passkey.tsx), renamed, and removed after a confirmation: a
// removed passkey signs in no more, even though the device still holds it.
import { PASSKEY_NAME_MAX_LENGTH } from '@intake/contract';
import { Badge, Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { ListTable } from '../../components/list-table';
import { notifyError, notifySuccess } from '../../components/notify';
import { RowActions } from '../../components/row-actions';
import {
  PasskeysDocument,
  RemovePasskeyDocument,
  RenamePasskeyDocument,
  type PasskeyFieldsFragment,
} from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';
import { browserSupportsWebAuthn } from '../../lib/passkey-ceremony';
import { AddPasskeyButton, PASSKEY_TYPENAMES } from './add-passkey';

/** Shown while `passkey` is being renamed (mounted per passkey, so the field starts from its name). */
function RenameDialog({ passkey, onClose }: { passkey: PasskeyFieldsFragment; onClose: () => void }) {
  const [{ fetching, error }, rename] = useMutation(RenamePasskeyDocument);
  const form = useForm({ mode: 'uncontrolled', initialValues: { name: decodeStoredText(passkey.name) } });
  const submit = form.onSubmit(async (values) => {
    const name = values.name.trim();
    if (name === '') {
      form.setFieldError('name', 'Enter a name');
      return;
    }
    const result = await rename({ id: passkey.id, name }, { additionalTypenames: ['Passkey'] });
    if (!result.data) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    notifySuccess(`Passkey renamed to ${name}`);
    onClose();
  });
  return (
    <Modal opened onClose={onClose} title="Rename passkey" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            required
            maxLength={PASSKEY_NAME_MAX_LENGTH}
            data-autofocus
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <ErrorAlert error={error} fieldsShownElsewhere={['name']} title="Passkey not renamed" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Save passkey name
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RemoveDialog({ passkey, onClose }: { passkey: PasskeyFieldsFragment | null; onClose: () => void }) {
  const [{ fetching }, remove] = useMutation(RemovePasskeyDocument);
  const name = decodeStoredText(passkey?.name);
  const confirm = async () => {
    if (passkey === null) {
      return;
    }
    const result = await remove({ id: passkey.id }, { additionalTypenames: PASSKEY_TYPENAMES });
    if (result.error) {
      notifyError(result.error, `Passkey ${name} was not removed`);
    } else {
      notifySuccess(`Passkey ${name} removed: it no longer signs you in`);
    }
    onClose();
  };
  return (
    <ConfirmDialog
      opened={passkey !== null}
      title={`Remove passkey ${name}?`}
      confirmLabel="Remove passkey"
      pending={fetching}
      onConfirm={() => void confirm()}
      onClose={onClose}
    >
      It stops signing you in at once. Your device keeps it until you delete it there too, in its passkey or password
      settings.
    </ConfirmDialog>
  );
}

function PasskeyRow({
  passkey,
  onRename,
  onRemove,
}: {
  passkey: PasskeyFieldsFragment;
  onRename: () => void;
  onRemove: () => void;
}) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw="normal">
        {/* On a phone the name column is as narrow as its longest word: the badge goes under the name. */}
        <Group gap={6} wrap="wrap">
          <Text span size="sm">
            {decodeStoredText(passkey.name)}
          </Text>
          {passkey.backedUp ? (
            <Badge variant="light" tt="none" style={{ flexShrink: 0, minWidth: 'max-content' }}>
              Synced
            </Badge>
          ) : null}
        </Group>
      </Table.Th>
      <Table.Td>{formatDateTime(passkey.createdAt)}</Table.Td>
      <Table.Td>{formatDateTime(passkey.lastUsedAt, 'Never')}</Table.Td>
      <Table.Td>
        <RowActions>
          <Button size="xs" variant="default" onClick={onRename}>
            Rename
          </Button>
          <Button size="xs" variant="light" color="red" onClick={onRemove}>
            Remove
          </Button>
        </RowActions>
      </Table.Td>
    </Table.Tr>
  );
}

export function PasskeysSection() {
  // An empty list names no type: the added type is said here, so adding the first one refreshes it.
  const context = useMemo(() => ({ additionalTypenames: ['Passkey'] }), []);
  const [{ data, error, fetching }] = useQuery({ query: PasskeysDocument, context });
  const [supported] = useState(browserSupportsWebAuthn);
  const [renaming, setRenaming] = useState<PasskeyFieldsFragment | null>(null);
  const [removing, setRemoving] = useState<PasskeyFieldsFragment | null>(null);
  return (
    <Stack gap="sm" component="section" aria-labelledby="passkeys-heading">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4" id="passkeys-heading">
          Passkeys
        </Title>
        {supported ? <AddPasskeyButton /> : null}
      </Group>
      <Text size="sm" c="dimmed" maw={760}>
        A passkey signs you in without a password: your device checks it is you with its PIN, face or fingerprint. After
        a password, it also serves as your second factor. Synced passkeys are copied to your other devices by your
        password manager or platform account.
      </Text>
      {supported ? null : (
        <Text size="sm">This browser cannot make passkeys: add one from a browser that supports them.</Text>
      )}
      <ListTable
        items={data?.passkeys}
        error={error}
        fetching={fetching}
        subject="passkeys"
        row={(passkey) => (
          <PasskeyRow
            key={passkey.id}
            passkey={passkey}
            onRename={() => setRenaming(passkey)}
            onRemove={() => setRemoving(passkey)}
          />
        )}
        empty="No passkeys yet."
        caption="Your passkeys"
        columns={['Name', 'Created', 'Last used', 'Actions']}
        minWidth={640}
      />
      {renaming ? <RenameDialog key={renaming.id} passkey={renaming} onClose={() => setRenaming(null)} /> : null}
      <RemoveDialog passkey={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}
