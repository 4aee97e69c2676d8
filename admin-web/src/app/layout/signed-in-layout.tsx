// Every page behind sign-in: the session check, then the shell around the page (one chunk, loaded
// once someone is past the sign-in page).
import { RequireSession } from '../require-session';
import { AppLayout } from './app-layout';

export function SignedInLayout() {
  return (
    <RequireSession>
      <AppLayout />
    </RequireSession>
  );
}
