// Pages behind sign-in: asks the API who is signed in; a lost session is sent to sign-in by the
// client's error handler (see urql-client.ts), anything else is shown with a way to try again. A
// member the team's policy holds until they set up two-factor sign-in is taken to that page.
import { Button, Center, Loader, Stack } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useQuery } from 'urql';
import { paths } from '../lib/paths';
import { hasErrorCode } from '../lib/api-errors';
import { rememberSignedIn } from '../lib/session-marker';
import { ErrorAlert } from '../components/error-alert';
import { MeDocument } from '../gql/graphql';
import { MeContext } from '../lib/me';
import { LiveUpdatesProvider } from '../lib/live-updates';

export function RequireSession({ children }: { children: ReactNode }) {
  const [{ data, fetching, error }, reexecute] = useQuery({ query: MeDocument });
  const location = useLocation();
  const signedIn = data?.me != null;
  useEffect(() => {
    if (signedIn) {
      rememberSignedIn();
    }
  }, [signedIn]);
  if (data?.me?.twoFactorRequired && location.pathname !== paths.twoFactor) {
    return <Navigate to={paths.twoFactor} replace />;
  }
  if (data?.me) {
    return (
      <MeContext.Provider value={data.me}>
        {/* Held for enrolment, the member may only set up a second factor: no live updates yet. */}
        <LiveUpdatesProvider enabled={!data.me.twoFactorRequired}>{children}</LiveUpdatesProvider>
      </MeContext.Provider>
    );
  }
  if (error && !hasErrorCode(error, 'UNAUTHENTICATED') && !fetching) {
    return (
      <Center p="xl">
        <Stack maw={480}>
          <ErrorAlert error={error} title="The console could not load" />
          <Button onClick={() => reexecute({ requestPolicy: 'network-only' })}>Try again</Button>
        </Stack>
      </Center>
    );
  }
  return (
    <Center p="xl" h="100vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}
