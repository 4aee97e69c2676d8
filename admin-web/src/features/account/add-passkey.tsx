// Adding a passkey: a name first ("Work laptop", to tell it apart later), then the browser's ceremony
// between the API's start and finish. The account page offers it, and the app puts it on the
// two-factor page too (where the team's policy holds a member without a second factor). A passkey counts
// as a second factor, so `me` is asked again after one is added: a held member is let go.
import { PASSKEY_NAME_MAX_LENGTH } from '@intake/contract';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { useMutation } from 'urql';
import { MessageAlert } from '../../components/message-alert';
import { notifySuccess } from '../../components/notify';
import { FinishPasskeyRegistrationDocument, StartPasskeyRegistrationDocument } from '../../gql/graphql';
import { describeError, fieldErrors } from '../../lib/api-errors';
import { answerRegistration, ceremonyFailure } from '../../lib/passkey-ceremony';

/** Cached queries over these types are asked again once a passkey is added (the list, and `me`). */
export const PASSKEY_TYPENAMES = ['Passkey', 'AdminUser'];

function AddPasskeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [, start] = useMutation(StartPasskeyRegistrationDocument);
  const [, finish] = useMutation(FinishPasskeyRegistrationDocument);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({ mode: 'uncontrolled', initialValues: { name: '' } });
  const close = () => {
    form.reset();
    setFailure(null);
    onClose();
  };

  /** Runs the ceremony; false when it failed, with the failure shown. */
  const add = async (name: string): Promise<boolean> => {
    const started = await start({});
    if (!started.data) {
      setFailure(describeError(started.error));
      return false;
    }
    let response: Record<string, unknown>;
    try {
      response = await answerRegistration(started.data.startPasskeyRegistration);
    } catch (error) {
      setFailure(ceremonyFailure(error));
      return false;
    }
    const finished = await finish({ name, response }, { additionalTypenames: PASSKEY_TYPENAMES });
    if (!finished.data) {
      const nameError = fieldErrors(finished.error).name;
      if (nameError !== undefined) {
        form.setFieldError('name', nameError);
      }
      setFailure(describeError(finished.error, ['name']) || null);
      return false;
    }
    return true;
  };

  const submit = form.onSubmit(async (values) => {
    const name = values.name.trim();
    if (name === '') {
      form.setFieldError('name', 'Enter a name');
      return;
    }
    setFailure(null);
    setPending(true);
    try {
      if (await add(name)) {
        notifySuccess(`Passkey ${name} added`);
        close();
      }
    } finally {
      setPending(false);
    }
  });

  return (
    <Modal opened={opened} onClose={close} title="Add a passkey" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description="Which device or key holds it, to tell your passkeys apart"
            placeholder="Work laptop"
            required
            maxLength={PASSKEY_NAME_MAX_LENGTH}
            data-autofocus
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <Text size="sm">Next, your browser asks where to keep it and for your PIN, face or fingerprint.</Text>
          <MessageAlert message={failure} title="Could not add the passkey" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Create passkey
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The "Add a passkey" button and its dialog. */
export function AddPasskeyButton({ variant = 'filled' }: { variant?: 'filled' | 'default' }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant={variant} leftSection={<IconKey size={16} aria-hidden />} onClick={() => setOpened(true)}>
        Add a passkey
      </Button>
      <AddPasskeyDialog opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}
