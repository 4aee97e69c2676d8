// `npm test` runs every workspace's suite; each workspace also runs alone with its own `npm test`.
export default {
  // A global option (ignored inside the per-project configs), applied by scripts/test-runner/setup.js.
  // It bounds hooks too: a beforeAll that starts services on a fresh embedded database took over 30 s
  // on the 2-core CI machine under load.
  testTimeout: 60000,
  // One worker per core: Jest's default leaves a core to its own process, and its test files mostly
  // keep one core busy each.
  maxWorkers: '100%',
  projects: [
    '<rootDir>/contract',
    '<rootDir>/shared',
    '<rootDir>/migrations',
    '<rootDir>/admin-api',
    '<rootDir>/gateway',
    '<rootDir>/worker',
    '<rootDir>/cli',
    '<rootDir>/tests/jest.config.js',
    '<rootDir>/tests/jest.console.config.js',
    '<rootDir>/bench',
    '<rootDir>/admin-web',
    '<rootDir>/client',
  ],
};
