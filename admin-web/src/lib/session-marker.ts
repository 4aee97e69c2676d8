// Whether this tab was signed in: the sign-in page says "Your session has ended" only then, not on
// a first visit nor after signing out. Kept in sessionStorage, so a reload keeps it and a new tab
// starts without it.
const KEY = 'intake.signedIn';

export function rememberSignedIn(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // Storage refused (a private mode): the page just never says the session ended.
  }
}

/** Forgets the mark and says whether it was there. */
export function forgetSignedIn(): boolean {
  try {
    const was = sessionStorage.getItem(KEY) === '1';
    sessionStorage.removeItem(KEY);
    return was;
  } catch {
    return false;
  }
}
