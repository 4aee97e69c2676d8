// The console's Chromium tests: the built console against real services, a project of its own
// ("console") so that CI runs them in its PGlite pass only (.ci/run). Their timeout is set in
// src/console/harness.ts (a project config's testTimeout is ignored).
import { preset } from '../jest.preset.js';

export default { ...preset('console'), testMatch: ['<rootDir>/src/console/**/*.test.ts'] };
