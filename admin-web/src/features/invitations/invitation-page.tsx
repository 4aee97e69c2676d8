// The page an invitation link opens (public, like sign-in): `/invitation#<token>`. The token is
// read from the fragment, which browsers never send to a server, and goes to the API in the
// GraphQL body only. A valid link asks for a name and a password and signs the person in (the API
// sets the session cookie, as `login` does; the page asks only for `expiresAt`, so the bearer token
// never reaches its scripts); a used, expired or revoked one gets a page saying so.
import { Anchor, Button, Center, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { SIGN_IN_PATH } from '../../lib/next-path';
import { useSessionControl } from '../../lib/session-control';
import { ErrorAlert } from '../../components/error-alert';
import { FormPasswordInput } from '../../components/form-password-input';
import { AcceptInvitationDocument, InvitationDocument, type InvitationState } from '../../gql/graphql';

type EndedState = Exclude<InvitationState, 'VALID'>;
import { fieldErrors } from '../../lib/api-errors';
import { paths } from '../../lib/paths';

const FIELDS = ['name', 'password', 'token'] as const;

const ENDED: Record<EndedState, { title: string; text: string }> = {
  USED: {
    title: 'This invitation was already used',
    text: 'An invitation link works once. If you joined with it, sign in with your e-mail and password.',
  },
  EXPIRED: {
    title: 'This invitation has expired',
    text: 'An invitation link works for 72 hours. Ask the person who invited you to send a new one.',
  },
  REVOKED: {
    title: 'This invitation was revoked',
    text: 'The link was withdrawn or replaced by a newer invitation. Use the latest e-mail you received, or ask the person who invited you.',
  },
};

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440}>
        {children}
      </Paper>
    </Center>
  );
}

function EndedInvitation({ state }: { state: EndedState }) {
  const { title, text } = ENDED[state];
  return (
    <Frame>
      <Stack>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text>{text}</Text>
        <Anchor component={Link} to={SIGN_IN_PATH}>
          Go to sign-in
        </Anchor>
      </Stack>
    </Frame>
  );
}

function JoinForm({
  token,
  email,
  role,
  onRefused,
}: {
  token: string;
  email: string;
  role: string;
  onRefused(): void;
}) {
  const navigate = useNavigate();
  const { resetClient } = useSessionControl();
  const [{ fetching, error }, accept] = useMutation(AcceptInvitationDocument);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: '', password: '' },
    validate: {
      name: (value) => (value.trim() === '' ? 'Enter your name' : null),
      password: (value) => (value === '' ? 'Choose a password' : null),
    },
  });

  const submit = form.onSubmit(async (values) => {
    const result = await accept({ input: { token, name: values.name.trim(), password: values.password } });
    if (result.data?.acceptInvitation) {
      resetClient();
      await navigate(paths.sites, { replace: true });
      return;
    }
    const errors = fieldErrors(result.error);
    if (errors.token !== undefined) {
      // Used, expired or revoked since the page opened: show which.
      onRefused();
      return;
    }
    form.setErrors(errors);
  });

  return (
    <Frame>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={1} size="h2">
            Join the team
          </Title>
          <Text>
            You are invited as {role === 'admin' ? 'an' : 'a'} <strong>{role}</strong> with the e-mail{' '}
            <strong>{email}</strong>. Choose your name and a password (at least 12 characters).
          </Text>
          <TextInput
            label="Name"
            autoComplete="name"
            required
            data-autofocus
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <FormPasswordInput form={form} field="password" label="Password" autoComplete="new-password" />
          <ErrorAlert error={error} fieldsShownElsewhere={FIELDS} title="Could not join" />
          <Button type="submit" loading={fetching}>
            Join
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}

export function InvitationPage() {
  const token = useLocation().hash.slice(1);
  const [{ data, fetching, error }, refetch] = useQuery({
    query: InvitationDocument,
    variables: { token },
    pause: token === '',
    requestPolicy: 'network-only',
  });

  useEffect(() => {
    document.title = 'Invitation · Intake console';
  }, []);

  if (token === '') {
    return <EndedInvitation state={'REVOKED'} />;
  }
  const invitation = data?.invitation;
  if (invitation === undefined) {
    return (
      <Frame>
        {fetching ? (
          <Center>
            <Loader aria-label="Loading the invitation" />
          </Center>
        ) : (
          <Stack>
            <Title order={1} size="h2">
              Invitation
            </Title>
            <ErrorAlert error={error} title="Could not open the invitation" />
          </Stack>
        )}
      </Frame>
    );
  }
  if (invitation.state !== 'VALID' || invitation.email == null || invitation.role == null) {
    return <EndedInvitation state={invitation.state === 'VALID' ? 'REVOKED' : invitation.state} />;
  }
  return (
    <JoinForm
      token={token}
      email={invitation.email}
      role={invitation.role}
      onRefused={() => refetch({ requestPolicy: 'network-only' })}
    />
  );
}
