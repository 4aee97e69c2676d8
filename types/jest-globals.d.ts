// Jest's globals for the tests that use them without importing `@jest/globals`, typed from the
// installed Jest itself so the types cannot drift from the runner (no separate @types/jest).
import type * as jestGlobals from '@jest/globals';

declare global {
  const describe: typeof jestGlobals.describe;
  const it: typeof jestGlobals.it;
  const test: typeof jestGlobals.test;
  const expect: typeof jestGlobals.expect;
  const jest: typeof jestGlobals.jest;
  const beforeAll: typeof jestGlobals.beforeAll;
  const afterAll: typeof jestGlobals.afterAll;
  const beforeEach: typeof jestGlobals.beforeEach;
  const afterEach: typeof jestGlobals.afterEach;
}
