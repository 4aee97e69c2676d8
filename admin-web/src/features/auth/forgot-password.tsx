// "Forgot password?" on the sign-in page. With e-mail set up on the server, it asks for the address
// and says the same thing whether it belongs to a member or not (the API tells nobody which addresses
// exist); without it, it says whom to ask: an owner or admin sends a link from the Members page.
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useMutation } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { RequestPasswordResetDocument } from '../../gql/graphql';

export function ForgotPassword({ byEmail, onBack }: { byEmail: boolean; onBack(): void }) {
  const [{ fetching, error }, request] = useMutation(RequestPasswordResetDocument);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: { email: (value) => (value.trim() === '' ? 'Enter your e-mail address' : null) },
  });
  const submit = form.onSubmit(async ({ email }) => {
    const result = await request({ email: email.trim() });
    if (result.data?.requestPasswordReset) {
      setSentTo(email.trim());
    }
  });

  return (
    <Stack>
      <Title order={1} size="h2">
        Reset your password
      </Title>
      {!byEmail ? (
        <Text>
          This server sends no e-mail. Ask an owner or an admin of your team: they send you a reset link from the
          Members page. An owner locked out with no other owner resets from the server with{' '}
          <code>npm run admin -- reset-password</code>.
        </Text>
      ) : sentTo !== null ? (
        <Alert color="green" role="status" title="Check your e-mail">
          If {sentTo} is the address of a member, a reset link is on its way. It works once, for 30 minutes.
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text>Enter the e-mail address you sign in with: we send you a link to choose a new password.</Text>
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              data-autofocus
              key={form.key('email')}
              {...form.getInputProps('email')}
            />
            <ErrorAlert error={error} title="Could not send the link" />
            <Button type="submit" loading={fetching}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Button variant="subtle" onClick={onBack}>
        Back to sign-in
      </Button>
    </Stack>
  );
}
