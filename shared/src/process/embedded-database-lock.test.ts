// One process per embedded database, with the real processes: a second `npm start` (other ports,
// the same DATA_DIR) and `npm run migrate` stop at once, naming the process that holds the
// database, while the first keeps serving; once that one is SIGKILLed, the next start serves at
// once. Always on the embedded PGlite (no DATABASE_URL), whichever database the run tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  killProcesses,
  listeningUrls,
  REPO_ROOT,
  runScript,
  stopProcess,
  type StartedProcess,
} from '../test/processes.js';

const START = 'scripts/start.js';
const MIGRATE = 'shared/dist/db/migrate-cli.js';

/** The refusal: one line naming the holder's pid and command, exit 1, nothing served. */
async function expectRefused(started: StartedProcess, holder: StartedProcess, dataDir: string): Promise<void> {
  // Bounded: before the lock, a second process started and served (a test waiting for its exit would hang).
  const stillRunning = new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 30_000).unref());
  expect(await Promise.race([started.exited, stillRunning])).toBe(1);
  const lines = started.output().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(
    `the embedded database ${path.join(dataDir, 'db')} is in use by process ${holder.child.pid} `,
  );
  expect(lines[0]).toContain(`(node ${path.join(REPO_ROOT, START)}, since `);
  expect(started.output()).not.toContain('"msg":"listening"');
}

describe('one process per embedded database', () => {
  it('refuses a second start and migrate on the same DATA_DIR, and a SIGKILLed holder does not block the next start', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-lock-'));
    const dataDir = path.join(cwd, 'data');
    const started: StartedProcess[] = [];
    const run = (script: string) => {
      const child = runScript(script, cwd, { GATEWAY_PORT: '0', ADMIN_PORT: '0' });
      started.push(child);
      return child;
    };
    try {
      const first = run(START);
      const urls = await listeningUrls(first, ['gateway', 'admin']);

      const second = run(START);
      const refusedWithin = Date.now();
      await expectRefused(second, first, dataDir);
      // At once: no waiting for a lock to go stale.
      expect(Date.now() - refusedWithin).toBeLessThan(15_000);
      await expectRefused(run(MIGRATE), first, dataDir);
      expect((await fetch(`${urls.gateway}/readyz`)).status).toBe(200);

      // Killed without a chance to clean up: the lock file stays, the lock does not.
      expect(await stopProcess(first, 'SIGKILL')).toBeNull();
      const next = run(START);
      const nextUrls = await listeningUrls(next, ['gateway', 'admin']);
      expect((await fetch(`${nextUrls.admin}/readyz`)).status).toBe(200);
      next.child.kill('SIGTERM');
      expect(await next.exited).toBe(0);
    } finally {
      await killProcesses(started);
    }
  }, 180_000);
});
