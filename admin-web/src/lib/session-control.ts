// What a page may do with the session: start afresh after sign-in or sign-out. The app's session root
// provides it (app/session.tsx); pages reach it here, so no feature imports the app.
import { createContext, useContext } from 'react';

export interface SessionControl {
  /** After sign-in or sign-out: forget everything cached for the previous session. */
  resetClient(): void;
}

export const SessionControlContext = createContext<SessionControl | null>(null);

export function useSessionControl(): SessionControl {
  const control = useContext(SessionControlContext);
  if (control === null) {
    throw new Error('useSessionControl outside SessionRoot');
  }
  return control;
}
