// The runs that cross services: `src/end-to-end/*.test.ts` start the gateway, the admin API and the
// worker (or their compiled processes) together. The console's Chromium tests (`src/console/`) are
// the project of jest.console.config.js. `src/reliability/` is `npm run test:reliability`
// (jest.reliability.config.js at the root), whose files end in `.reliability.ts` and so stay out of
// this project.
import { preset } from '../jest.preset.js';

const base = preset('tests');
export default { ...base, testPathIgnorePatterns: [...base.testPathIgnorePatterns, '<rootDir>/src/console/'] };
