// Set up once in each test worker, before its first test file. jest-light-runner has no time limits:
// here every test and hook gets Jest's (`testTimeout`, `jest.setTimeout` for the rest of its file,
// or the one given to it), so a test that hangs fails with Jest's message and the run goes on.
// type-graphql's decorators need the metadata polyfill before the first decorated class.
import 'reflect-metadata';
import { getState } from 'jest-circus';
import { bind } from 'jest-each';

/** Jest's `testTimeout`, handed over by runner.js. */
const TEST_TIMEOUT_MS = Number(process.env.INTAKE_TEST_TIMEOUT_MS ?? 5000);

// Taken now: a test may replace the global timers with fake ones.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** `jest.setTimeout` holds for the file that called it: for the root block the runner built for it. */
let fileTimeout = { root: undefined, ms: TEST_TIMEOUT_MS };
const timeoutNow = () => (fileTimeout.root === getState().rootDescribeBlock ? fileTimeout.ms : TEST_TIMEOUT_MS);

/** `fn` failing after its time limit, as Jest's own runner does. */
function limited(fn, kind, ms) {
  if (typeof fn !== 'function') {
    return fn;
  }
  return async () => {
    const limit = ms ?? timeoutNow();
    let timer;
    const expired = new Promise((_, reject) => {
      timer = realSetTimeout(() => reject(new Error(`Exceeded timeout of ${limit} ms for a ${kind}.`)), limit);
    });
    const run =
      fn.length > 0
        ? new Promise((resolve, reject) => fn((error) => (error ? reject(error) : resolve())))
        : Promise.resolve().then(fn);
    try {
      await Promise.race([run, expired]);
    } finally {
      realClearTimeout(timer);
    }
  };
}

/** `test` (or `test.only`) with time limits, `.each` included. */
function limitedTest(register) {
  const wrapped = (name, fn, ms) => register(name, limited(fn, 'test', ms), ms);
  wrapped.each = bind(wrapped);
  return wrapped;
}

const { test } = globalThis;
const limitedIt = limitedTest(test);
limitedIt.only = limitedTest(test.only);
limitedIt.skip = test.skip;
limitedIt.todo = test.todo;
limitedIt.failing = test.failing;
limitedIt.concurrent = test.concurrent;
globalThis.test = globalThis.it = limitedIt;
globalThis.fit = limitedIt.only;
for (const hook of ['beforeAll', 'afterAll', 'beforeEach', 'afterEach']) {
  const register = globalThis[hook];
  globalThis[hook] = (fn, ms) => register(limited(fn, 'hook', ms), ms);
}
globalThis.jest.setTimeout = (ms) => {
  fileTimeout = { root: getState().rootDescribeBlock, ms };
  return globalThis.jest;
};
