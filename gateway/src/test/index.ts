// `@intake/gateway/test`: the gateway's test helpers for other workspaces' tests (reliability runs).
// Source only (the "@intake/source" export condition of jest and the tests' type check): never built.
export * from './harness.js';
