// Sign-in: the login mutation sets the HttpOnly session cookie; the page asks only for `expiresAt`,
// so the bearer token in the same answer never reaches the page's scripts. With single sign-on
// configured, a link to the provider comes first (a page navigation: the admin API's start route
// redirects to the provider, whose answer comes back to the callback and then to the console). A
// member with two-factor sign-in gets a challenge instead: the password is cleared and the second
// factor's step takes over. Single sign-on of such a member comes back here (`?second-factor=sso`)
// for the same step, its challenge read from the cookie the callback set. Where the browser supports
// WebAuthn, a passkey signs in alone, without e-mail or password.
import { Alert, Button, Center, Divider, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { safeNextPath } from '../../lib/next-path';
import { useSessionControl } from '../../lib/session-control';
import { ErrorAlert } from '../../components/error-alert';
import { FormPasswordInput } from '../../components/form-password-input';
import { SignInDocument, SignInOptionsDocument, SsoSecondFactorDocument } from '../../gql/graphql';
import { errorExtension, errorExtensionList, hasErrorCode } from '../../lib/api-errors';
import { browserSupportsWebAuthn } from '../../lib/passkey-ceremony';
import { ForgotPassword } from './forgot-password';
import { PasskeyFailureAlert, PasskeySignInButton, usePasskeySignIn } from './passkey-sign-in';
import { SecondFactorStep, type SecondFactorMethods } from './second-factor-step';
import { ssoErrorMessage } from './sso-errors';

/** The methods of SECOND_FACTOR_REQUIRED (or of `ssoSecondFactor`) as the second step offers them. */
function methodsOf(methods: readonly string[]): SecondFactorMethods {
  return { code: methods.includes('totp'), passkey: methods.includes('passkey') };
}

export function SignInPage() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { resetClient } = useSessionControl();
  const [{ fetching, error }, signIn] = useMutation(SignInDocument);
  const [{ data: options }] = useQuery({ query: SignInOptionsDocument, requestPolicy: 'network-only' });
  const sso = options?.signInOptions.sso ?? null;
  const passwordsForOwnersOnly = options?.signInOptions.passwords === false;
  const ssoError = ssoErrorMessage(searchParams.get('error'));
  const next = searchParams.get('next');
  const ssoHref =
    sso === null ? null : next === null ? sso.startPath : `${sso.startPath}?next=${encodeURIComponent(next)}`;
  const sessionLost = (location.state as { sessionLost?: boolean } | null)?.sessionLost === true;
  const [secondFactor, setSecondFactor] = useState<{ challenge: string; methods: SecondFactorMethods } | null>(null);
  // Back from the provider for the second factor: the step this browser is in, if it still holds.
  const afterSso = searchParams.get('second-factor') === 'sso';
  const [{ data: ssoStep }] = useQuery({
    query: SsoSecondFactorDocument,
    pause: !afterSso,
    requestPolicy: 'network-only',
  });
  const ssoSecondFactor = afterSso ? (ssoStep?.ssoSecondFactor ?? null) : null;
  const ssoStepExpired = afterSso && ssoStep !== undefined && ssoSecondFactor === null;
  const [passkeys] = useState(browserSupportsWebAuthn);
  const [forgot, setForgot] = useState(false);
  const passwordReset = (location.state as { passwordReset?: boolean } | null)?.passwordReset === true;
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

  const signedIn = async () => {
    resetClient();
    await navigate(safeNextPath(searchParams.get('next')), { replace: true });
  };
  const passkeySignIn = usePasskeySignIn(null, signedIn);
  const startOver = () => {
    setSecondFactor(null);
    if (afterSso) {
      void navigate(next === null ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`, { replace: true });
    }
  };

  const submit = form.onSubmit(async (values) => {
    const result = await signIn({ email: values.email.trim(), password: values.password });
    form.setFieldValue('password', '');
    if (result.data?.login) {
      await signedIn();
    } else if (hasErrorCode(result.error, 'SECOND_FACTOR_REQUIRED')) {
      const challenge = errorExtension(result.error, 'SECOND_FACTOR_REQUIRED', 'challenge');
      const methods = errorExtensionList(result.error, 'SECOND_FACTOR_REQUIRED', 'methods');
      if (challenge !== null) {
        // An API from before passkeys sends no methods: a code was the only second factor then.
        setSecondFactor({ challenge, methods: methodsOf(methods.length === 0 ? ['totp'] : methods) });
      }
    }
  });

  const step =
    secondFactor ??
    (ssoSecondFactor === null
      ? null
      : { challenge: ssoSecondFactor.challenge, methods: methodsOf(ssoSecondFactor.methods) });
  if (forgot) {
    return (
      <Center mih="100vh" p="md" component="main">
        <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
          <ForgotPassword
            byEmail={options?.signInOptions.passwordResetByEmail === true}
            onBack={() => setForgot(false)}
          />
        </Paper>
      </Center>
    );
  }
  if (step !== null) {
    return (
      <Center mih="100vh" p="md" component="main">
        <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
          <SecondFactorStep
            challenge={step.challenge}
            methods={step.methods}
            onSignedIn={signedIn}
            onStartOver={startOver}
          />
        </Paper>
      </Center>
    );
  }

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={1} size="h2">
              Sign in
            </Title>
            {passwordReset && !error ? (
              <Alert color="green" role="status">
                Your password is changed. Sign in with it; your second factor is asked for as before.
              </Alert>
            ) : null}
            {sessionLost && !error ? (
              <Alert color="yellow" role="status">
                Your session has ended. Sign in to go on where you were.
              </Alert>
            ) : null}
            {ssoStepExpired && !error ? (
              <Alert color="yellow" role="status">
                Signing in with single sign-on needs your second factor too, and that step has expired. Sign in again.
              </Alert>
            ) : null}
            {ssoError !== null && !error ? (
              <Alert color="red" title="Could not sign in with single sign-on" role="alert">
                {ssoError}
              </Alert>
            ) : null}
            {sso !== null && ssoHref !== null ? (
              <>
                <Button component="a" href={ssoHref} variant="filled">
                  Sign in with {sso.name}
                </Button>
                <Divider label={passwordsForOwnersOnly ? 'Owners: with a password' : 'or with a password'} />
                {passwordsForOwnersOnly ? (
                  <Text size="sm" c="dimmed">
                    Your team signs in with {sso.name}: passwords work only for owners and for people outside its e-mail
                    domains.
                  </Text>
                ) : null}
              </>
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
            <Button type="submit" loading={fetching} variant={sso === null ? 'filled' : 'default'}>
              Sign in
            </Button>
            <Button variant="subtle" size="compact-sm" onClick={() => setForgot(true)}>
              Forgot password?
            </Button>
          </Stack>
        </form>
        {passkeys ? (
          <Stack mt="md">
            <Divider label="or without a password" />
            <PasskeyFailureAlert failure={passkeySignIn.failure} />
            <PasskeySignInButton
              label="Sign in with a passkey"
              pending={passkeySignIn.pending}
              onClick={() => void passkeySignIn.run()}
            />
          </Stack>
        ) : null}
      </Paper>
    </Center>
  );
}
