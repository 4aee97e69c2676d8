// The step after the password for a member with a second factor: the API answered the password with
// a challenge (SECOND_FACTOR_REQUIRED) and the methods this member has. A code (the app's, or a
// recovery code) is sent with the challenge; a passkey answers a ceremony started with it. With only
// a passkey, it is the one action. The password is no longer held anywhere on the page.
import { Alert, Anchor, Button, Divider, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { VerifySecondFactorDocument } from '../../gql/graphql';
import { browserSupportsWebAuthn } from '../../lib/passkey-ceremony';
import { PasskeyFailureAlert, PasskeySignInButton, usePasskeySignIn } from './passkey-sign-in';

/** What may follow this member's password: a code (app or recovery) and/or a passkey. */
export interface SecondFactorMethods {
  code: boolean;
  passkey: boolean;
}

interface SecondFactorStepProps {
  challenge: string;
  methods: SecondFactorMethods;
  onSignedIn(): Promise<void>;
  /** Back to e-mail and password (a challenge ends after 5 minutes or 5 wrong codes). */
  onStartOver(): void;
}

function CodeForm({ challenge, onSignedIn }: Pick<SecondFactorStepProps, 'challenge' | 'onSignedIn'>) {
  const [recovery, setRecovery] = useState(false);
  const [{ fetching, error }, verify] = useMutation(VerifySecondFactorDocument);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { code: '' },
    validate: { code: (value) => (value.trim() === '' ? 'Enter the code' : null) },
  });

  const submit = form.onSubmit(async ({ code }) => {
    const result = await verify({ challenge, code: code.trim() });
    if (result.data?.verifySecondFactor) {
      const left = result.data.verifySecondFactor.recoveryCodesLeft;
      if (left !== null && left !== undefined) {
        // Said after a recovery code only: running out means asking an owner to reset the factor.
        notifications.show({
          color: left <= 3 ? 'yellow' : 'blue',
          title: 'Recovery code used',
          message: `${left} recovery ${left === 1 ? 'code is' : 'codes are'} left. Make new ones on the Two-factor sign-in page.`,
          autoClose: 15000,
        });
      }
      await onSignedIn();
    } else {
      form.setFieldValue('code', '');
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          {recovery
            ? 'Enter one of your recovery codes. Each works once.'
            : 'Enter the 6-digit code your authenticator app shows for Intake.'}
        </Text>
        <TextInput
          key={`${form.key('code')}-${recovery ? 'recovery' : 'totp'}`}
          label={recovery ? 'Recovery code' : 'Code'}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          spellCheck={false}
          required
          data-autofocus
          autoFocus
          {...form.getInputProps('code')}
        />
        <ErrorAlert error={error} title="Could not sign in" />
        <Button type="submit" loading={fetching}>
          Verify
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            form.reset();
            setRecovery((current) => !current);
          }}
        >
          {recovery ? 'Use a code from the app' : 'Use a recovery code'}
        </Anchor>
      </Stack>
    </form>
  );
}

export function SecondFactorStep({ challenge, methods, onSignedIn, onStartOver }: SecondFactorStepProps) {
  const [supported] = useState(browserSupportsWebAuthn);
  const passkey = usePasskeySignIn(challenge, onSignedIn);
  const offerPasskey = methods.passkey && supported;
  return (
    <Stack>
      <Title order={1} size="h2">
        Two-factor sign-in
      </Title>
      {methods.code ? <CodeForm challenge={challenge} onSignedIn={onSignedIn} /> : null}
      {offerPasskey ? (
        <>
          {methods.code ? (
            <Divider label="or" />
          ) : (
            <Text size="sm">
              Confirm it is you with one of your passkeys: your device asks for its PIN, face or fingerprint.
            </Text>
          )}
          <PasskeyFailureAlert failure={passkey.failure} />
          <PasskeySignInButton
            label="Use a passkey"
            variant={methods.code ? 'default' : 'filled'}
            pending={passkey.pending}
            onClick={() => void passkey.run()}
          />
        </>
      ) : null}
      {!methods.code && !offerPasskey ? (
        <Alert color="yellow" role="status">
          Your second factor is a passkey, and this browser cannot use passkeys. Sign in from a browser that can.
        </Alert>
      ) : null}
      <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onStartOver}>
        Start over
      </Anchor>
    </Stack>
  );
}
