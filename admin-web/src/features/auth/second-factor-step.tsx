// The step after the password for a member with two-factor sign-in: the API answered the password
// with a challenge (SECOND_FACTOR_REQUIRED), and this form sends it with the app's code or a
// recovery code. The password is no longer held anywhere on the page.
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useMutation } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { VerifySecondFactorDocument } from '../../gql/graphql';

interface SecondFactorStepProps {
  challenge: string;
  onSignedIn(): Promise<void>;
  /** Back to e-mail and password (a challenge ends after 5 minutes or 5 wrong codes). */
  onStartOver(): void;
}

export function SecondFactorStep({ challenge, onSignedIn, onStartOver }: SecondFactorStepProps) {
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
      await onSignedIn();
    } else {
      form.setFieldValue('code', '');
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Title order={1} size="h2">
          Two-factor sign-in
        </Title>
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
        <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onStartOver}>
          Start over
        </Anchor>
      </Stack>
    </form>
  );
}
