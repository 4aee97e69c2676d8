// Shared jest setup for every workspace: TypeScript through SWC (fast, keeps decorator metadata for
// type-graphql), native ESM, and workspace packages resolved to their sources so tests need no build.

import { fileURLToPath } from 'node:url';

/** Every test file hashes passwords cheaply (shared/src/test/cheap-password-hashes.ts says why). */
const CHEAP_PASSWORD_HASHES = fileURLToPath(new URL('./shared/src/test/cheap-password-hashes.ts', import.meta.url));

export function preset(displayName) {
  return {
    displayName,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    testMatch: ['<rootDir>/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    transform: {
      '^.+\\.ts$': [
        '@swc/jest',
        {
          jsc: {
            target: 'es2024',
            parser: { syntax: 'typescript', decorators: true },
            transform: { legacyDecorator: true, decoratorMetadata: true },
          },
          module: { type: 'es6' },
          sourceMaps: 'inline',
        },
      ],
    },
    testTimeout: 30000,
    setupFilesAfterEnv: [CHEAP_PASSWORD_HASHES],
    // Workspace packages resolve to their TypeScript sources through the "@intake/source" condition
    // of their package.json exports, so tests need no build; test helpers (`@intake/shared/test`)
    // are entries with that condition only.
    testEnvironmentOptions: { customExportConditions: ['@intake/source', 'node', 'node-addons'] },
    moduleNameMapper: {
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
  };
}
