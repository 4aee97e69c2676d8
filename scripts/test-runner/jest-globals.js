// What `import { … } from '@jest/globals'` gives a test under the runner: the globals it installs
// (setup.js completes `jest`).
export const { expect, jest, describe, it, test, beforeAll, afterAll, beforeEach, afterEach } = globalThis;
