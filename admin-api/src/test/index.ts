// `@intake/admin-api/test`: the admin API's test helpers for other workspaces' tests (the runs across
// services in tests/). Source only (the "@intake/source" export condition of jest and the tests'
// type check): never built.
export * from './factories.js';
export * from './harness.js';
export * from './oidc-test-provider.js';
export * from './authenticator.js';
export { RESET_ANSWER_FLOOR_MS } from '../sign-in/recovery/request-password-reset.js';
