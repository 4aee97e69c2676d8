// The console's Chromium tests: the built console against real services, a project of its own
// ("console") so that CI runs them in its PGlite pass only (.ci/run). Their timeout is set in
// src/console/harness.ts (a project config's testTimeout is ignored). One Chromium serves the whole
// run (console-chromium.mjs); each file opens its own context in it.
import { preset } from '../jest.preset.js';

export default {
  ...preset('console'),
  testMatch: ['<rootDir>/src/console/**/*.test.ts'],
  globalSetup: '<rootDir>/console-chromium-setup.mjs',
  globalTeardown: '<rootDir>/console-chromium-teardown.mjs',
};
