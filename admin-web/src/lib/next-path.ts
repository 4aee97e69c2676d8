// Where sign-in leads: back to the page a lost session was on, and only ever to a page of this origin.
export const SIGN_IN_PATH = '/sign-in';

/** `/sign-in?next=<here>`, so signing in again returns to the page the session was lost on. */
export function signInPathReturningTo(location: { pathname: string; search: string; hash: string }): string {
  const here = `${location.pathname}${location.search}${location.hash}`;
  return here === '/' || location.pathname === SIGN_IN_PATH
    ? SIGN_IN_PATH
    : `${SIGN_IN_PATH}?next=${encodeURIComponent(here)}`;
}

const AFTER_SIGN_IN = '/sites';

/**
 * Where to go after signing in: `next` only when it is a path on this origin. Resolved as the
 * browser would, so `//host`, `/\\host` and `/<tab>/host` (the URL parser drops tabs and
 * newlines) cannot lead elsewhere.
 */
export function safeNextPath(next: string | null, origin: string = window.location.origin): string {
  if (next === null || !next.startsWith('/')) {
    return AFTER_SIGN_IN;
  }
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return AFTER_SIGN_IN;
  }
  if (url.origin !== origin || url.pathname === SIGN_IN_PATH) {
    return AFTER_SIGN_IN;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}
