import { preset } from '../jest.preset.js';

// The console's unit tests, beside the code in src/. The Chromium tests, which drive the built console
// against real services, are in tests/src/console/.
export default preset('admin-web');
