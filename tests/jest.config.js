// The runs that cross services: `src/end-to-end/*.test.ts` start the gateway, the admin API and the
// worker (or their compiled processes) together; `src/console/*.test.ts` drive the built console in
// Chromium against them (their timeout is set in src/console/harness.ts). `src/reliability/` is
// `npm run test:reliability` (jest.reliability.config.js at the root), whose files end in
// `.reliability.ts` and so stay out of this project.
import { preset } from '../jest.preset.js';

export default preset('tests');
