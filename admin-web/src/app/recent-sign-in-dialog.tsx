// "Confirm it is you": shown when a change needs a recent sign-in (docs/sign-in.md#recent-sign-in)
// and the session's is older than ten minutes. The person confirms with what the API said it
// accepts from them: their password, a code of their authenticator app (or a recovery code), a
// passkey, or signing in again through the team's provider. Confirmed, the API starts a new session
// (its cookie replaces the old one) and the change is sent again (recent-sign-in-exchange.ts).
import { Anchor, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, type CombinedError } from 'urql';
import { MessageAlert } from '../components/message-alert';
import {
  ConfirmSignInWithCodeDocument,
  ConfirmSignInWithPasskeyDocument,
  ConfirmSignInWithPasswordDocument,
  SignInOptionsDocument,
  StartPasskeyConfirmationDocument,
} from '../gql/graphql';
import { describeError, fieldErrors } from '../lib/api-errors';
import { answerSignIn, ceremonyFailure } from '../lib/passkey-ceremony';

export interface RecentSignInRequest {
  /** What the API accepts from this person: `password`, `totp`, `passkey`, `sso`. */
  methods: string[];
}

interface DialogProps {
  request: RecentSignInRequest | null;
  /** true once confirmed, false when the person gave up. */
  onDone: (confirmed: boolean) => void;
}

/** The field error of the answer (or the whole error in words), for the field in use. */
function failureOf(error: CombinedError | undefined, field: string): string {
  return fieldErrors(error)[field] ?? describeError(error);
}

function SignInAgainLink() {
  const [{ data }] = useQuery({ query: SignInOptionsDocument });
  const sso = data?.signInOptions.sso;
  if (!sso) {
    return null;
  }
  const next = `${window.location.pathname}${window.location.search}`;
  return (
    <Anchor href={`${sso.startPath}?next=${encodeURIComponent(next)}`} size="sm">
      Sign in again with {sso.name}
    </Anchor>
  );
}

function ConfirmForm({ methods, onDone }: { methods: string[]; onDone: DialogProps['onDone'] }) {
  const [mode, setMode] = useState<'password' | 'code'>(methods.includes('password') ? 'password' : 'code');
  const [value, setValue] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [, withPassword] = useMutation(ConfirmSignInWithPasswordDocument);
  const [, withCode] = useMutation(ConfirmSignInWithCodeDocument);
  const [, startPasskey] = useMutation(StartPasskeyConfirmationDocument);
  const [, withPasskey] = useMutation(ConfirmSignInWithPasskeyDocument);
  const canType = methods.includes('password') || methods.includes('totp');

  const run = async (attempt: () => Promise<string | null>) => {
    setPending(true);
    setFailure(null);
    try {
      const problem = await attempt();
      if (problem === null) {
        onDone(true);
      } else {
        setFailure(problem);
      }
    } finally {
      setPending(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === '') {
      setFailure(mode === 'password' ? 'Enter your password' : 'Enter a code');
      return;
    }
    void run(async () => {
      const result =
        mode === 'password' ? await withPassword({ password: value }) : await withCode({ code: value.trim() });
      return result.data ? null : failureOf(result.error, mode);
    });
  };

  const confirmWithPasskey = () =>
    void run(async () => {
      const started = await startPasskey({});
      if (!started.data) {
        return describeError(started.error);
      }
      let response: Record<string, unknown>;
      try {
        response = await answerSignIn(started.data.startPasskeyConfirmation);
      } catch (error) {
        return ceremonyFailure(error);
      }
      const confirmed = await withPasskey({ response });
      return confirmed.data ? null : failureOf(confirmed.error, 'passkeyResponse');
    });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          This change needs a sign-in within the last 10 minutes. Confirm it is you, and it goes ahead.
        </Text>
        {canType && mode === 'password' ? (
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            data-autofocus
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
          />
        ) : null}
        {canType && mode === 'code' ? (
          <TextInput
            label="Code"
            description="The code of your authenticator app, or a recovery code"
            autoComplete="one-time-code"
            required
            data-autofocus
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
          />
        ) : null}
        {methods.includes('password') && methods.includes('totp') ? (
          <Anchor
            component="button"
            type="button"
            size="sm"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => {
              setMode(mode === 'password' ? 'code' : 'password');
              setValue('');
              setFailure(null);
            }}
          >
            {mode === 'password' ? 'Use a code instead' : 'Use your password instead'}
          </Anchor>
        ) : null}
        {methods.includes('sso') ? <SignInAgainLink /> : null}
        <MessageAlert message={failure} title="Not confirmed" />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onDone(false)}>
            Cancel
          </Button>
          {methods.includes('passkey') ? (
            <Button
              type="button"
              variant={canType ? 'default' : 'filled'}
              leftSection={<IconKey size={16} aria-hidden />}
              loading={pending && !canType}
              onClick={confirmWithPasskey}
            >
              Confirm with a passkey
            </Button>
          ) : null}
          {canType ? (
            <Button type="submit" loading={pending}>
              Confirm
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}

export function RecentSignInDialog({ request, onDone }: DialogProps) {
  return (
    // Above the dialog whose change it confirms (Mantine's modals share one z-index, 200).
    <Modal opened={request !== null} onClose={() => onDone(false)} title="Confirm it is you" centered zIndex={300}>
      {request === null ? null : <ConfirmForm methods={request.methods} onDone={onDone} />}
    </Modal>
  );
}
