// `npm test` runs every workspace's suite; each workspace also runs alone with its own `npm test`.
export default {
  projects: ['<rootDir>/shared', '<rootDir>/migrations', '<rootDir>/admin-api', '<rootDir>/gateway'],
};
