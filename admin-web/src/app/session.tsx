// The session in one place: the urql client (a fresh one, with an empty cache, after every sign-in
// and sign-out), where to go when the API says the session is gone, and the dialog that confirms an
// old sign-in before a change that needs a recent one.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { Provider as UrqlProvider } from 'urql';
import { SIGN_IN_PATH, signInPathReturningTo } from '../lib/next-path';
import { SessionControlContext } from '../lib/session-control';
import { forgetSignedIn } from '../lib/session-marker';
import { RecentSignInDialog, type RecentSignInRequest } from './recent-sign-in-dialog';
import { createUrqlClient } from './urql-client';

/** The root route: provides the GraphQL client and sends a lost session to sign-in. */
export function SessionRoot() {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  const sessionLostRef = useRef(() => {});
  // One dialog at a time: changes refused together wait for the same confirmation.
  const [recentSignIn, setRecentSignIn] = useState<RecentSignInRequest | null>(null);
  const pendingConfirmation = useRef<{ promise: Promise<boolean>; resolve: (confirmed: boolean) => void } | null>(null);
  const confirmRecentSignIn = useCallback((methods: string[]) => {
    if (pendingConfirmation.current === null) {
      let resolve: (confirmed: boolean) => void = () => {};
      const promise = new Promise<boolean>((done) => (resolve = done));
      pendingConfirmation.current = { promise, resolve };
      setRecentSignIn({ methods });
    }
    return pendingConfirmation.current.promise;
  }, []);
  const recentSignInDone = useCallback((confirmed: boolean) => {
    pendingConfirmation.current?.resolve(confirmed);
    pendingConfirmation.current = null;
    setRecentSignIn(null);
  }, []);
  const newClient = useCallback(
    () => createUrqlClient(() => sessionLostRef.current(), confirmRecentSignIn),
    [confirmRecentSignIn],
  );
  const [client, setClient] = useState(newClient);
  const resetClient = useCallback(() => {
    setClient(newClient());
  }, [newClient]);

  useEffect(() => {
    sessionLostRef.current = () => {
      // Answers to requests sent before the redirect may still arrive: one redirect is enough.
      if (window.location.pathname === SIGN_IN_PATH) {
        return;
      }
      resetClient();
      // A first visit, or one after signing out, is no session lost.
      void navigateRef.current(signInPathReturningTo(window.location), {
        replace: true,
        state: forgetSignedIn() ? { sessionLost: true } : null,
      });
    };
  }, [resetClient]);

  const control = useMemo(() => ({ resetClient }), [resetClient]);
  return (
    <SessionControlContext.Provider value={control}>
      <UrqlProvider value={client}>
        <Outlet />
        <RecentSignInDialog request={recentSignIn} onDone={recentSignInDone} />
      </UrqlProvider>
    </SessionControlContext.Provider>
  );
}
