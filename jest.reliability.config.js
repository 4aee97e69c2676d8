// `npm run test:reliability`: load, crash, outage and fuzz runs (tests/src/reliability/) against a
// listening gateway on PostgreSQL (issue #6). Kept apart from `npm test` (whose projects match only
// `*.test.ts`): these runs take minutes and need TEST_DATABASE_URL. One file at a time, since each
// loads the machine.
import { preset } from './jest.preset.js';

export default {
  ...preset('reliability'),
  testMatch: ['<rootDir>/tests/src/reliability/**/*.reliability.ts'],
  testTimeout: 180_000,
  maxWorkers: 1,
};
