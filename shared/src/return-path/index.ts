// Where signing in may lead (a path of the console's own origin): written by @intake/contract, which
// the console bundles too, so the admin API and the sign-in page decide alike.
export { AFTER_SIGN_IN, SIGN_IN_PATH, safeReturnPath } from '@intake/contract';
