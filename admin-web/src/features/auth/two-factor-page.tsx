// Two-factor sign-in for the signed-in member: set it up (QR code, the secret written out for
// password managers, a first code), see the recovery codes once, or turn it off with a code. A
// member the team's policy holds lands here after signing in and can go on once it is set up, or
// once they add a passkey instead (a passkey is a second factor too; the account page lists them).
import { Alert, Anchor, Box, Button, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { CopyButton } from '../../components/copy-button';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import {
  ConfirmTwoFactorDocument,
  DisableTwoFactorDocument,
  StartTwoFactorEnrolmentDocument,
  TwoFactorStatusDocument,
} from '../../gql/graphql';
import { paths } from '../../lib/paths';
import { browserSupportsWebAuthn } from '../../lib/passkey-ceremony';
import { RecoveryCodes } from './recovery-codes';

// The member's state changes with these mutations: every cached `me` is asked again.
const REFRESH_ME = { additionalTypenames: ['AdminUser'] };

/** The base32 secret in groups of four, as apps and password managers show it. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

function CodeForm({
  label,
  button,
  onCode,
  fetching,
  error,
}: {
  label: string;
  button: string;
  onCode(code: string): Promise<boolean>;
  fetching: boolean;
  error: Parameters<typeof ErrorAlert>[0]['error'];
}) {
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { code: '' },
    validate: { code: (value) => (value.trim() === '' ? 'Enter the code' : null) },
  });
  const submit = form.onSubmit(async ({ code }) => {
    await onCode(code.trim());
    form.setFieldValue('code', '');
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={360}>
        <TextInput
          label={label}
          autoComplete="one-time-code"
          spellCheck={false}
          required
          key={form.key('code')}
          {...form.getInputProps('code')}
        />
        <ErrorAlert error={error} title={`${button} failed`} />
        <Button type="submit" loading={fetching} style={{ alignSelf: 'flex-start' }}>
          {button}
        </Button>
      </Stack>
    </form>
  );
}

function Enrolment({ onConfirmed }: { onConfirmed(codes: string[]): void }) {
  const [started, start] = useMutation(StartTwoFactorEnrolmentDocument);
  const [confirmed, confirm] = useMutation(ConfirmTwoFactorDocument);
  const enrolment = started.data?.startTwoFactorEnrolment;

  if (!enrolment) {
    return (
      <Stack align="flex-start">
        <Text>
          After your password, Intake will ask for a 6-digit code from an authenticator app (or a password manager that
          makes such codes) on your phone or computer.
        </Text>
        <ErrorAlert error={started.error} title="Could not start" />
        <Button loading={started.fetching} onClick={() => void start({})}>
          Set up two-factor sign-in
        </Button>
      </Stack>
    );
  }
  return (
    <Stack>
      <Text>1. Scan this QR code with your authenticator app.</Text>
      <Box
        role="img"
        aria-label="QR code of your two-factor secret"
        w={200}
        h={200}
        bg="white"
        // The SVG is made by the admin API from the otpauth URI (qrcode); it holds no script.
        dangerouslySetInnerHTML={{ __html: enrolment.qrCodeSvg }}
      />
      <Text>Or type this secret into the app or your password manager:</Text>
      <Group gap="sm">
        <Code fz="md" data-testid="two-factor-secret">
          {grouped(enrolment.secret)}
        </Code>
        <CopyButton value={enrolment.secret} label="Copy secret" />
      </Group>
      <Text>2. Enter the code the app shows now.</Text>
      <CodeForm
        label="Code"
        button="Confirm"
        fetching={confirmed.fetching}
        error={confirmed.error}
        onCode={async (code) => {
          const result = await confirm({ code }, REFRESH_ME);
          if (result.data?.confirmTwoFactor) {
            onConfirmed(result.data.confirmTwoFactor.codes);
            notifySuccess('Two-factor sign-in is on.');
            return true;
          }
          return false;
        }}
      />
    </Stack>
  );
}

function TurnOff() {
  const [disabled, disable] = useMutation(DisableTwoFactorDocument);
  return (
    <Stack>
      <Text>
        Two-factor sign-in is <strong>on</strong>: after your password, Intake asks for a code from your app.
      </Text>
      <Title order={2} size="h4">
        Turn it off
      </Title>
      <CodeForm
        label="Code or recovery code"
        button="Turn off"
        fetching={disabled.fetching}
        error={disabled.error}
        onCode={async (code) => {
          const result = await disable({ code }, REFRESH_ME);
          if (result.data?.disableTwoFactor) {
            notifySuccess('Two-factor sign-in is off.');
            return true;
          }
          return false;
        }}
      />
    </Stack>
  );
}

/**
 * Passkeys as the other second factor: added right here while the team's policy holds the member
 * (the account page is closed to them until then), else a pointer to the account page's list.
 */
function PasskeyAlternative({ held, addPasskey }: { held: boolean; addPasskey: ReactNode }) {
  const [supported] = useState(browserSupportsWebAuthn);
  if (!held) {
    return (
      <Text size="sm" c="dimmed" mt="md" maw={640}>
        Passkeys are a second factor too, and sign you in without a password: manage them on{' '}
        <Anchor component={Link} to={paths.account} size="sm" underline="always">
          your account page
        </Anchor>
        .
      </Text>
    );
  }
  return (
    <Paper withBorder p="lg" maw={640} mt="md" component="section" aria-labelledby="passkey-alternative-heading">
      <Stack align="flex-start">
        <Title order={2} size="h4" id="passkey-alternative-heading">
          Or add a passkey
        </Title>
        <Text>
          A passkey on this device or a security key also meets the team's rule: your device checks it is you with its
          PIN, face or fingerprint, and you can then sign in with it alone.
        </Text>
        {supported ? (
          addPasskey
        ) : (
          <Text size="sm">This browser cannot make passkeys: set up the app above, or use a browser that can.</Text>
        )}
      </Stack>
    </Paper>
  );
}

/** `addPasskey`: the account feature's Add passkey button, which the app composes in. */
export function TwoFactorPage({ addPasskey }: { addPasskey: ReactNode }) {
  const [{ data, error }] = useQuery({ query: TwoFactorStatusDocument });
  // Held here, not in the enrolment: once confirmed, the member has a second factor and the page
  // switches to "on", but the codes stay on screen until they say they saved them.
  const [codes, setCodes] = useState<string[] | null>(null);
  const me = data?.me;
  return (
    <>
      <PageHeader title="Two-factor sign-in" help="twoFactor" />
      {me?.twoFactorRequired ? (
        <Alert color="blue" title="Your team requires two-factor sign-in" mb="md" maw={640} role="status">
          Set it up, or add a passkey, to go on: until then, this is the only page open to you.
        </Alert>
      ) : null}
      <Paper withBorder p="lg" maw={640}>
        <ErrorAlert error={error} title="Could not load" />
        {codes !== null ? (
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        ) : me ? (
          me.twoFactorEnabled ? (
            <TurnOff />
          ) : (
            <Enrolment onConfirmed={setCodes} />
          )
        ) : null}
      </Paper>
      {me && !me.twoFactorEnabled && codes === null ? (
        <PasskeyAlternative held={me.twoFactorRequired} addPasskey={addPasskey} />
      ) : null}
    </>
  );
}
