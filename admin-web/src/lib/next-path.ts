// Where sign-in leads: back to the page a lost session was on, and only ever to a page of this
// origin (@intake/contract's safeReturnPath, the same decision the admin API makes for single sign-on).
import { SIGN_IN_PATH, safeReturnPath } from '@intake/contract';

export { SIGN_IN_PATH };

/** `/sign-in?next=<here>`, so signing in again returns to the page the session was lost on. */
export function signInPathReturningTo(location: { pathname: string; search: string; hash: string }): string {
  const here = `${location.pathname}${location.search}${location.hash}`;
  return here === '/' || location.pathname === SIGN_IN_PATH
    ? SIGN_IN_PATH
    : `${SIGN_IN_PATH}?next=${encodeURIComponent(here)}`;
}

/** Where to go after signing in: `next` only when it is a path that stays on this origin. */
export function safeNextPath(next: string | null): string {
  return safeReturnPath(next);
}
