// `@intake/gateway/test`: the gateway's test helpers for other workspaces' tests (tests/: the runs across
// services and the reliability runs).
// Source only (the "@intake/source" export condition of jest and the tests' type check): never built.
export * from './clamd.js';
export * from './harness.js';
export * from './siteverify-stub.js';
