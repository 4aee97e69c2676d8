// Jest's runner for every project: jest-light-runner, which runs test files one after another in
// long-lived child processes instead of each in a fresh VM context, so the libraries a file loads are
// loaded and warmed once per worker, not once per file (docs/decisions/test-runner.md: the PGlite pass
// went from 19 minutes to 7). register.js loads the TypeScript; setup.js adds Jest's time limits.
import { createRunner } from 'jest-light-runner';
// With one worker the runner runs the files in this process: it needs the hooks too.
import { REGISTER_OPTION } from './register.js';

const LightRunner = createRunner({ runtime: 'child_process' });

/** What a worker process sets up from its project's configuration: projects alike in it share workers. */
const workerSetupOf = (config) =>
  JSON.stringify([config.setupFiles, config.setupFilesAfterEnv, config.snapshotSerializers, config.snapshotFormat]);

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

  /**
   * The runner keeps a pool of workers per project until the run ends: with 12 projects, 24
   * processes on two cores (12.6 GB). Every project here sets up the same (jest.preset.js), so
   * each file is handed over as if of the first project set up like its own, and one pool serves
   * them all; Jest still hears of each file as it is.
   */
  runTests(tests, watcher, onStart, onResult, onFailure) {
    const configs = new Map();
    const original = new Map();
    const handedOver = tests.map((test) => {
      const setup = workerSetupOf(test.context.config);
      if (!configs.has(setup)) {
        configs.set(setup, test.context.config);
      }
      const shared = { ...test, context: { ...test.context, config: configs.get(setup) } };
      original.set(shared, test);
      return shared;
    });
    return super.runTests(
      handedOver,
      watcher,
      (test) => onStart(original.get(test)),
      (test, result) => onResult(original.get(test), result),
      (test, error) => onFailure(original.get(test), error),
    );
  }
}
