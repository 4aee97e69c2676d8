// Shared jest setup for every workspace: TypeScript through SWC (fast, keeps decorator metadata for
// type-graphql), native ESM, and workspace packages resolved to their sources so tests need no build.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(fileURLToPath(import.meta.url));

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
    moduleNameMapper: {
      '^@intake/migrations$': path.join(root, 'migrations/index.ts'),
      '^@intake/shared/test$': path.join(root, 'shared/src/test/index.ts'),
      '^@intake/(shared|gateway|admin-api)$': path.join(root, '$1/src/index.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
  };
}
