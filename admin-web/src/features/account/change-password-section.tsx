// The account page's password: the API ends every other session and re-issues this one's cookie.
// It also answers the passkeys added since the last sign-in with the password: a stolen session may
// have added one (docs/sign-in.md#recent-sign-in), so they are listed here, each to keep or remove.
import { Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useMutation } from 'urql';
import { PASSKEY_TYPENAMES } from './add-passkey';
import { ErrorAlert } from '../../components/error-alert';
import { FormPasswordInput } from '../../components/form-password-input';
import { notifyError, notifySuccess } from '../../components/notify';
import { ChangePasswordDocument, RemovePasskeyDocument, type PasskeyFieldsFragment } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTime } from '../../lib/format';

const FIELDS = ['currentPassword', 'newPassword'] as const;

/** The passkeys to review after a change, each removed at a click; gone once none is left or kept. */
function PasskeysToReview({ passkeys, onDone }: { passkeys: PasskeyFieldsFragment[]; onDone: () => void }) {
  const [left, setLeft] = useState(passkeys);
  const [{ fetching }, remove] = useMutation(RemovePasskeyDocument);
  const removeOne = async (passkey: PasskeyFieldsFragment) => {
    const name = decodeStoredText(passkey.name);
    const result = await remove({ id: passkey.id }, { additionalTypenames: PASSKEY_TYPENAMES });
    if (result.error) {
      notifyError(result.error, `Passkey ${name} was not removed`);
      return;
    }
    notifySuccess(`Passkey ${name} removed: it no longer signs you in`);
    const rest = left.filter((other) => other.id !== passkey.id);
    setLeft(rest);
    if (rest.length === 0) {
      onDone();
    }
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby="passkeys-to-review-heading">
      <Title order={3} size="h5" id="passkeys-to-review-heading">
        Passkeys added since you last signed in with your password
      </Title>
      <Text size="sm">If you do not know one of them, someone who had your session may have added it: remove it.</Text>
      <List listStyleType="none" spacing="xs">
        {left.map((passkey) => (
          <List.Item key={passkey.id}>
            <Group gap="sm">
              <Text size="sm">
                {decodeStoredText(passkey.name)}, added {formatDateTime(passkey.createdAt)}
              </Text>
              <Button
                size="xs"
                variant="light"
                color="red"
                loading={fetching}
                aria-label={`Remove passkey ${decodeStoredText(passkey.name)}`}
                onClick={() => void removeOne(passkey)}
              >
                Remove
              </Button>
            </Group>
          </List.Item>
        ))}
      </List>
      <Button variant="default" size="xs" style={{ alignSelf: 'flex-start' }} onClick={onDone}>
        Keep them
      </Button>
    </Stack>
  );
}

export function ChangePasswordSection() {
  const [{ fetching, error }, changePassword] = useMutation(ChangePasswordDocument);
  const [toReview, setToReview] = useState<PasskeyFieldsFragment[]>([]);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: {
      currentPassword: (value) => (value === '' ? 'Enter your current password' : null),
      newPassword: (value) => (value === '' ? 'Enter a new password' : null),
      confirmPassword: (value, values) => (value !== values.newPassword ? 'The two new passwords differ' : null),
    },
  });

  const submit = form.onSubmit(async (values) => {
    const result = await changePassword({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
    });
    if (result.data?.changePassword) {
      form.reset();
      setToReview(result.data.changePassword.passkeysSincePasswordSignIn);
      notifySuccess('Password changed. Every other session has been signed out.');
      return;
    }
    form.setErrors(fieldErrors(result.error));
  });

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-heading">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h4" id="password-heading">
            Password
          </Title>
          <Text size="sm" c="dimmed">
            Changing the password signs out every other browser and ends the admin tokens issued before.
          </Text>
          <FormPasswordInput
            form={form}
            field="currentPassword"
            label="Current password"
            autoComplete="current-password"
          />
          <FormPasswordInput form={form} field="newPassword" label="New password" autoComplete="new-password" />
          <FormPasswordInput
            form={form}
            field="confirmPassword"
            label="Confirm new password"
            autoComplete="new-password"
          />
          <ErrorAlert error={error} fieldsShownElsewhere={FIELDS} title="Password not changed" />
          <Button type="submit" loading={fetching} style={{ alignSelf: 'flex-start' }}>
            Change password
          </Button>
        </Stack>
      </form>
      {toReview.length > 0 ? (
        <Stack mt="lg">
          <PasskeysToReview
            key={toReview.map((passkey) => passkey.id).join()}
            passkeys={toReview}
            onDone={() => setToReview([])}
          />
        </Stack>
      ) : null}
    </Paper>
  );
}
