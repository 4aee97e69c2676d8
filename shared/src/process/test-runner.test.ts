// The test runner (scripts/test-runner/) keeps Jest's time limits, which jest-light-runner alone does
// not have: a run of its own over two scratch test files, one after the other in one process as a
// worker of `npm test` runs them, must fail a hung test with Jest's message, keep a test's own limit and
// `test.each`, and not carry one file's `jest.setTimeout` into the next file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../test/processes.js';

interface Report {
  testResults: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

const FILES = {
  // The larger file: Jest runs it first.
  'a-sets-a-short-limit.test.ts': `
    import { jest } from '@jest/globals';
    jest.setTimeout(300);
    test('hangs', () => new Promise(() => undefined));
    test('takes 500 ms within its own limit', () => new Promise((done) => setTimeout(done, 500)), 2000);
    test.each([1, 2])('row %i hangs', (row: number) => new Promise(() => expect(row).toBeGreaterThan(0)));
  `,
  'b.test.ts': `test('takes 500 ms within the default limit', () => new Promise((done) => setTimeout(done, 500)));`,
};

describe('the test runner', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'intake-test-runner-'));
    for (const [name, source] of Object.entries(FILES)) {
      writeFileSync(path.join(dir, name), source);
    }
    writeFileSync(
      path.join(dir, 'jest.config.js'),
      `export default ${JSON.stringify({
        rootDir: dir,
        runner: path.join(REPO_ROOT, 'scripts/test-runner/runner.js'),
        setupFilesAfterEnv: [path.join(REPO_ROOT, 'scripts/test-runner/setup.js')],
        testTimeout: 1500,
      })};`,
    );
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails what outlasts its limit, and a limit set in one file ends with it', () => {
    const reportFile = path.join(dir, 'report.json');
    const run = spawnSync(
      process.execPath,
      [
        path.join(REPO_ROOT, 'node_modules/jest/bin/jest.js'),
        '--config',
        path.join(dir, 'jest.config.js'),
        '--maxWorkers=1',
        '--json',
        '--outputFile',
        reportFile,
      ],
      { cwd: dir, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(1);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
    const outcomes = report.testResults
      .flatMap((file) => file.assertionResults)
      .map((result) => [
        result.title,
        result.status,
        /Exceeded timeout of (\d+) ms/.exec(result.failureMessages.join())?.[1],
      ])
      .sort();
    expect(outcomes).toEqual([
      ['hangs', 'failed', '300'],
      ['row 1 hangs', 'failed', '300'],
      ['row 2 hangs', 'failed', '300'],
      ['takes 500 ms within its own limit', 'passed', undefined],
      ['takes 500 ms within the default limit', 'passed', undefined],
    ]);
  });
});
