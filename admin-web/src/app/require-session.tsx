// Pages behind sign-in: asks the API who is signed in; a lost session is sent to sign-in by the
// client's error handler (see urql-client.ts), anything else is shown with a way to try again. A
// member the team's policy holds until they set up two-factor sign-in is taken to that page.
import { Button, Center, Loader, Stack } from '@mantine/core';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useQuery } from 'urql';
import { paths } from '../lib/paths';
import { hasErrorCode } from '../lib/api-errors';
import { rememberSignedIn } from '../lib/session-marker';
import { ErrorAlert } from '../components/error-alert';
import { MeDocument, type MemberRole } from '../gql/graphql';

/** The team permissions of docs/teams.md, as `me.permissions` answers them. */
export type TeamPermission =
  | 'account'
  | 'tokens:all'
  | 'sites:create'
  | 'sites:delete'
  | 'statistics:read'
  | 'erasure'
  | 'audit:read'
  | 'members:manage';

export interface SignedInAdmin {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  permissions: readonly string[];
}

const MeContext = createContext<SignedInAdmin | null>(null);

/** The signed-in administrator (inside RequireSession only). */
export function useMe(): SignedInAdmin {
  const me = useContext(MeContext);
  if (me === null) {
    throw new Error('useMe outside RequireSession');
  }
  return me;
}

/**
 * Whether the signed-in member holds a team permission: what they may not do is not offered (the
 * API refuses it anyway).
 */
export function useCan(permission: TeamPermission): boolean {
  return useMe().permissions.includes(permission);
}

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
    return <MeContext.Provider value={data.me}>{children}</MeContext.Provider>;
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
