// `npm test` runs every workspace's suite; each workspace also runs alone with its own `npm test`.
export default {
  // A global option: ignored inside the per-project configs.
  testTimeout: 30000,
  projects: [
    '<rootDir>/shared',
    '<rootDir>/migrations',
    '<rootDir>/admin-api',
    '<rootDir>/gateway',
    '<rootDir>/admin-web',
  ],
};
