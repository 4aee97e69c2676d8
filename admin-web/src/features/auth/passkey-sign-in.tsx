// Signing in with a passkey: the API's options, the browser's ceremony, the API's check (which sets
// the session cookie as `login` does). Alone, any passkey of this site signs in; with the challenge
// of a password answered SECOND_FACTOR_REQUIRED, the passkey is the second factor. Every failure,
// the API's or the browser's (cancelled, timed out), ends in the alert, never a thrown error.
import { Button } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { useMutation } from 'urql';
import { MessageAlert } from '../../components/message-alert';
import { FinishPasskeySignInDocument, StartPasskeySignInDocument } from '../../gql/graphql';
import { describeError } from '../../lib/api-errors';
import { answerSignIn, ceremonyFailure } from '../../lib/passkey-ceremony';

export const PASSKEY_SIGN_IN_FAILED = 'Could not sign in with a passkey';

/** `run()` signs in with a passkey (as the second factor with `challenge`); `failure` says why it did not. */
export function usePasskeySignIn(challenge: string | null, onSignedIn: () => Promise<void>) {
  const [, start] = useMutation(StartPasskeySignInDocument);
  const [, finish] = useMutation(FinishPasskeySignInDocument);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const attempt = async (): Promise<string | null> => {
    const started = await start({ challenge });
    if (!started.data) {
      return describeError(started.error);
    }
    let response: Record<string, unknown>;
    try {
      response = await answerSignIn(started.data.startPasskeySignIn);
    } catch (error) {
      return ceremonyFailure(error);
    }
    const finished = await finish({ response, challenge });
    if (!finished.data) {
      return describeError(finished.error);
    }
    await onSignedIn();
    return null;
  };

  const run = async () => {
    setPending(true);
    setFailure(null);
    try {
      setFailure(await attempt());
    } finally {
      setPending(false);
    }
  };
  return { run, pending, failure };
}

interface PasskeySignInButtonProps {
  label: string;
  pending: boolean;
  onClick: () => void;
  variant?: 'filled' | 'default';
}

export function PasskeySignInButton({ label, pending, onClick, variant = 'default' }: PasskeySignInButtonProps) {
  return (
    <Button
      type="button"
      variant={variant}
      loading={pending}
      leftSection={<IconKey size={16} aria-hidden />}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}

export function PasskeyFailureAlert({ failure }: { failure: string | null }) {
  return <MessageAlert message={failure} title={PASSKEY_SIGN_IN_FAILED} />;
}
