// The account page's password: the API ends every other session and re-issues this one's cookie.
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { FormPasswordInput } from '../../components/form-password-input';
import { notifySuccess } from '../../components/notify';
import { ChangePasswordDocument } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';

const FIELDS = ['currentPassword', 'newPassword'] as const;

export function ChangePasswordSection() {
  const [{ fetching, error }, changePassword] = useMutation(ChangePasswordDocument);
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
    </Paper>
  );
}
