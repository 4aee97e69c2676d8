// The session in one place: the urql client (a fresh one, with an empty cache, after every sign-in
// and sign-out) and where to go when the API says the session is gone.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { Provider as UrqlProvider } from 'urql';
import { SIGN_IN_PATH, signInPathReturningTo } from '../lib/next-path';
import { createUrqlClient } from './urql-client';

export { SIGN_IN_PATH, safeNextPath } from '../lib/next-path';

interface SessionControl {
  /** After sign-in or sign-out: forget everything cached for the previous session. */
  resetClient(): void;
}

const SessionContext = createContext<SessionControl | null>(null);

export function useSessionControl(): SessionControl {
  const control = useContext(SessionContext);
  if (control === null) {
    throw new Error('useSessionControl outside SessionRoot');
  }
  return control;
}

/** The root route: provides the GraphQL client and sends a lost session to sign-in. */
export function SessionRoot() {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  const sessionLostRef = useRef(() => {});
  const [client, setClient] = useState(() => createUrqlClient(() => sessionLostRef.current()));
  const resetClient = useCallback(() => {
    setClient(createUrqlClient(() => sessionLostRef.current()));
  }, []);

  useEffect(() => {
    sessionLostRef.current = () => {
      // Answers to requests sent before the redirect may still arrive: one redirect is enough.
      if (window.location.pathname === SIGN_IN_PATH) {
        return;
      }
      resetClient();
      void navigateRef.current(signInPathReturningTo(window.location), {
        replace: true,
        state: { sessionLost: true },
      });
    };
  }, [resetClient]);

  const control = useMemo(() => ({ resetClient }), [resetClient]);
  return (
    <SessionContext.Provider value={control}>
      <UrqlProvider value={client}>
        <Outlet />
      </UrqlProvider>
    </SessionContext.Provider>
  );
}
