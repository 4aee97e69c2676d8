// `npm test` in this workspace: both of its projects, the runs across services and the console's.
// Named here rather than as `--projects` on the command line, which would take the path of
// `npm test -- <path>` for a third project.
export default {
  projects: ['<rootDir>/jest.config.js', '<rootDir>/jest.console.config.js'],
};
