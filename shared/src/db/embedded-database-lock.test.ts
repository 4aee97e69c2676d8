// The embedded database's lock inside one process: a second open of the same folder is refused
// while the first is open (two PGlite instances on one folder lose data as two processes do), and
// closing the first gives the lock back. Other processes: shared/src/process/embedded-database-lock.test.ts.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedDatabaseInUseError, lockFileOf } from './embedded-database-lock.js';
import { openDatabase } from './orm.js';

describe('the embedded database lock in one process', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'intake-pglite-lock-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second open of an open folder, naming this process, and opens again once it is closed', async () => {
    const dataDir = path.join(dir, 'db');
    const first = await openDatabase({ pgliteDir: dataDir });
    try {
      const second = openDatabase({ pgliteDir: dataDir });
      await expect(second).rejects.toBeInstanceOf(EmbeddedDatabaseInUseError);
      await expect(second).rejects.toThrow(`in use by process ${process.pid} (`);
      await expect(second).rejects.toThrow(', this process, since ');
      const holder = JSON.parse(readFileSync(lockFileOf(dataDir), 'utf8')) as { pid: number };
      expect(holder.pid).toBe(process.pid);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ pgliteDir: dataDir });
    try {
      expect(await again.em.fork().getConnection().execute('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await again.close();
    }
    // The lock file stays: removing it could let two processes each lock a file of their own.
    expect(existsSync(lockFileOf(dataDir))).toBe(true);
  }, 180_000);
});
