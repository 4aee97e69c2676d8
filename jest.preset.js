// Shared jest setup for every workspace. Test files run in long-lived worker processes
// (scripts/test-runner/runner.js says why), where Node module hooks compile TypeScript through SWC
// (keeping decorator metadata for type-graphql) and resolve workspace packages to their sources, so
// tests need no build; test helpers (`@intake/shared/test`) are package entries with that condition only.

import { fileURLToPath } from 'node:url';

const runnerFile = (name) => fileURLToPath(new URL(`./scripts/test-runner/${name}`, import.meta.url));

/** Every test file hashes passwords cheaply (shared/src/test/cheap-password-hashes.ts says why). */
const CHEAP_PASSWORD_HASHES = fileURLToPath(new URL('./shared/src/test/cheap-password-hashes.ts', import.meta.url));

export function preset(displayName) {
  return {
    displayName,
    runner: runnerFile('runner.js'),
    testMatch: ['<rootDir>/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    testTimeout: 30000,
    setupFilesAfterEnv: [runnerFile('setup.js'), CHEAP_PASSWORD_HASHES],
  };
}
