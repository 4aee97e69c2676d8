import { preset } from '../jest.preset.js';

// Unit tests beside the code in src/, and the end-to-end tests in e2e/ that drive Chromium against
// the built console served by a real admin service.
// Their timeout is set in e2e/harness.ts (a project config's testTimeout is ignored).
export default preset('admin-web');
