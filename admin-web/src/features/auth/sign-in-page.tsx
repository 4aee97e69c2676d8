// Sign-in: the login mutation sets the HttpOnly session cookie; the page asks only for `expiresAt`,
// so the bearer token in the same answer never reaches the page's scripts.
import { Alert, Button, Center, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useMutation } from 'urql';
import { useSessionControl, safeNextPath } from '../../app/session';
import { ErrorAlert } from '../../components/error-alert';
import { FormPasswordInput } from '../../components/form-password-input';
import { SignInDocument } from '../../gql/graphql';

export function SignInPage() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { resetClient } = useSessionControl();
  const [{ fetching, error }, signIn] = useMutation(SignInDocument);
  const sessionLost = (location.state as { sessionLost?: boolean } | null)?.sessionLost === true;
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (value.trim() === '' ? 'Enter your e-mail address' : null),
      password: (value) => (value === '' ? 'Enter your password' : null),
    },
  });

  useEffect(() => {
    document.title = 'Sign in · Intake console';
  }, []);

  const submit = form.onSubmit(async (values) => {
    const result = await signIn({ email: values.email.trim(), password: values.password });
    if (result.data?.login) {
      resetClient();
      await navigate(safeNextPath(searchParams.get('next')), { replace: true });
    } else {
      form.setFieldValue('password', '');
    }
  });

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={1} size="h2">
              Sign in
            </Title>
            {sessionLost && !error ? (
              <Alert color="yellow" role="status">
                Your session has ended. Sign in to go on where you were.
              </Alert>
            ) : null}
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              data-autofocus
              key={form.key('email')}
              {...form.getInputProps('email')}
            />
            <FormPasswordInput form={form} field="password" label="Password" autoComplete="current-password" />
            <ErrorAlert error={error} title="Could not sign in" />
            <Button type="submit" loading={fetching}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
