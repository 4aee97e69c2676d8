// The page a reset link opens (public, like sign-in): `/reset-password#<token>`. The token is read
// from the fragment, which browsers never send to a server, and goes to the API in the GraphQL body
// only. The new password signs nobody in: the page sends the member to sign-in, where the second
// factor is asked for as before.
import { Anchor, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { SIGN_IN_PATH } from '../../lib/next-path';
import { ErrorAlert } from '../../components/error-alert';
import { FormPasswordInput } from '../../components/form-password-input';
import { ResetPasswordDocument } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';

const FIELDS = ['newPassword', 'token'] as const;

export function ResetPasswordPage() {
  const token = useLocation().hash.slice(1);
  const navigate = useNavigate();
  const [{ fetching, error }, reset] = useMutation(ResetPasswordDocument);
  const [dead, setDead] = useState(token === '');
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { newPassword: '' },
    validate: { newPassword: (value) => (value === '' ? 'Choose a password' : null) },
  });

  useEffect(() => {
    document.title = 'Reset password · Intake console';
  }, []);

  const submit = form.onSubmit(async ({ newPassword }) => {
    const result = await reset({ token, newPassword });
    if (result.data?.resetPassword) {
      await navigate(SIGN_IN_PATH, { replace: true, state: { passwordReset: true } });
      return;
    }
    const errors = fieldErrors(result.error);
    if (errors.token !== undefined) {
      setDead(true);
      return;
    }
    form.setErrors(errors);
  });

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440}>
        {dead ? (
          <Stack>
            <Title order={1} size="h2">
              This reset link no longer works
            </Title>
            <Text>
              A reset link works once, for 30 minutes, and a newer one replaces it. Ask for a new one from the sign-in
              page.
            </Text>
            <Anchor component={Link} to={SIGN_IN_PATH}>
              Go to sign-in
            </Anchor>
          </Stack>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              <Title order={1} size="h2">
                Choose a new password
              </Title>
              <Text>At least 12 characters. Every session of your account ends; then sign in with it.</Text>
              <FormPasswordInput form={form} field="newPassword" label="New password" autoComplete="new-password" />
              <ErrorAlert error={error} fieldsShownElsewhere={FIELDS} title="Could not change the password" />
              <Button type="submit" loading={fetching}>
                Set password
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
