// Jest's runner for every project: jest-light-runner, which runs test files one after another in
// long-lived child processes instead of each in a fresh VM context, so the libraries a file loads are
// loaded and warmed once per worker, not once per file (docs/decisions/test-runner.md: the PGlite pass
// went from 19 minutes to about 6). register.js loads the TypeScript; setup.js adds Jest's time limits.
import { createRunner } from 'jest-light-runner';
// With one worker the runner runs the files in this process: it needs the hooks too.
import { REGISTER_OPTION } from './register.js';

const LightRunner = createRunner({ runtime: 'child_process' });

export default class TestRunner extends LightRunner {
  constructor(globalConfig, context) {
    super(globalConfig, context);
    // The worker processes inherit this environment (setup.js reads the time limit there). With one
    // worker there are none, and the processes tests start must not get the hooks.
    if (globalConfig.maxWorkers > 1) {
      process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, REGISTER_OPTION].filter(Boolean).join(' ');
    }
    process.env.INTAKE_TEST_TIMEOUT_MS = String(globalConfig.testTimeout);
  }
}
