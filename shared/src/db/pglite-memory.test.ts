// A new embedded database on disk is created by a child process (initdb), then opened here.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDatabase } from './orm.js';

describe('embedded database on disk', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'intake-pglite-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('is created in a child process on first open, migrated, and found again on the next open', async () => {
    const dataDir = path.join(dir, 'db');
    const first = await openDatabase({ pgliteDir: dataDir });
    try {
      expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
      expect((await migrate(first)).length).toBeGreaterThan(0);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ pgliteDir: dataDir });
    try {
      expect(await migrate(again)).toEqual([]);
      const [row] = await again.em.fork().getConnection().execute<{ shared_buffers: string }[]>('show shared_buffers');
      expect(row?.shared_buffers).toBe('16MB');
    } finally {
      await again.close();
    }
  }, 180_000);
});
