// Durable files in groups, on real files and the real database (PGlite, or PostgreSQL with
// TEST_DATABASE_URL): the store makes a group's files durable in one call, each file and each folder
// fsynced once, before the statement that refers to them; a file that cannot be made durable fails
// its own submission only. The fsyncs are the real ones, observed (and held) through the storage's
// `syncPath`.
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Site } from '@intake/shared/entities';
import type { Services } from '@intake/shared/services';
import { createLocalStorage, type Storage } from '@intake/shared/storage';
import { createTestServices, makeForm, makeSite } from '@intake/shared/test';
import { RECORD_FILE, submissionRecord } from '../test/submission-record.js';
import { submissionStore, type SubmissionRecord } from './submission-store.js';

async function fsync(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** How many stored rows refer to these ids. */
async function rowsOf(services: Services, ids: readonly string[]): Promise<number> {
  const rows = await services.db.em
    .fork()
    .execute<{ count: string }[]>(
      `select count(*)::text as "count" from "submissions" where "id" in (${ids.map(() => '?').join(', ')})`,
      [...ids],
    );
  return Number(rows[0]!.count);
}

describe('durable files in groups', () => {
  let services: Awaited<ReturnType<typeof createTestServices>>;
  let site: Site;
  let root: string;

  beforeAll(async () => {
    services = await createTestServices();
    ({ site } = await makeSite(services));
    root = await mkdtemp(path.join(tmpdir(), 'intake-durable-files-'));
  });

  afterAll(async () => {
    await services.close();
    await rm(root, { recursive: true, force: true });
  });

  /** A file put into `storage` as the gateway puts an upload: moved, not yet durable. */
  async function putUpload(storage: Storage): Promise<string> {
    const upload = path.join(root, `upload-${randomBytes(16).toString('hex')}`);
    await writeFile(upload, 'hello');
    return storage.putFile(upload, { move: true, syncLater: true });
  }

  async function recordsWithFiles(storage: Storage, count: number): Promise<SubmissionRecord[]> {
    const form = await makeForm(services, site);
    const keys = await Promise.all(Array.from({ length: count }, () => putUpload(storage)));
    return keys.map((storageKey) => submissionRecord(site, form, { files: [{ ...RECORD_FILE, storageKey }] }));
  }

  it('syncs each file and each folder of a group once, in one call, and commits no row before its sync', async () => {
    const files = path.join(root, 'grouped');
    const synced: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const storage = createLocalStorage(files, {
      syncPath: async (file) => {
        await held;
        await fsync(file);
        synced.push(file);
      },
    });
    const calls: number[] = [];
    const makeDurable = storage.makeDurable!.bind(storage);
    const store = submissionStore(
      services.db,
      { maxRows: 64, windowMs: 0 },
      {
        files: {
          makeDurable: (keys) => {
            calls.push(keys.length);
            return makeDurable(keys);
          },
        },
      },
    );
    expect(store.makesFilesDurable).toBe(true);
    const given = await recordsWithFiles(storage, 20);
    expect(synced).toEqual([]);

    const written = Promise.all(given.map((submission) => store.write(submission)));
    // The first write's fsyncs are held: nothing is committed meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toEqual([1]);
    expect(
      await rowsOf(
        services,
        given.map((submission) => submission.id),
      ),
    ).toBe(0);
    release();
    const outcomes = await written;

    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(given.map(() => 'stored'));
    // The lone first write, then the 19 that queued behind it: one call each.
    expect(calls).toEqual([1, 19]);
    expect(store.groupCounts).toMatchObject({ groups: 2, rows: 20 });
    const objects = given.map((submission) => path.join(files, submission.files[0]!.storageKey));
    const folders = new Set(objects.map((object) => path.dirname(object)));
    expect(synced.filter((file) => objects.includes(file)).sort()).toEqual([...objects].sort());
    // Each folder once per call that had a file in it: at most one per file, never more.
    const folderSyncs = synced.filter((file) => folders.has(file));
    expect(folderSyncs.length).toBe(synced.length - objects.length);
    expect(folderSyncs.length).toBeLessThanOrEqual(objects.length);
    expect(new Set(folderSyncs).size).toBe(folders.size);
    // Every file synced before any folder of its own call: the second call's files come after the first's folder.
    expect(synced.indexOf(path.dirname(objects[0]!))).toBe(1);
  });

  it('fails only the submission whose file could not be made durable, as a storage failure', async () => {
    const files = path.join(root, 'failing');
    let failing = '';
    const storage = createLocalStorage(files, {
      syncPath: async (file) => {
        if (file === failing) {
          throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
        }
        await fsync(file);
      },
    });
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 0 }, { files: storage });
    const given = await recordsWithFiles(storage, 6);
    // The lone first write goes at once; the bad one is in the group of five behind it.
    failing = path.join(files, given[3]!.files[0]!.storageKey);
    const outcomes = await Promise.allSettled(given.map((submission) => store.write(submission)));

    expect(outcomes[3]).toMatchObject({ status: 'rejected', reason: { code: 'service_unavailable', retryAfter: 5 } });
    for (const position of [0, 1, 2, 4, 5]) {
      expect(outcomes[position]).toMatchObject({ status: 'fulfilled', value: { outcome: 'stored' } });
    }
    expect(await rowsOf(services, [given[3]!.id])).toBe(0);
    expect(
      await rowsOf(
        services,
        given.filter((_submission, position) => position !== 3).map((submission) => submission.id),
      ),
    ).toBe(5);
  });

  it('makes the file durable before the transaction of a write with a duplicate filter', async () => {
    const files = path.join(root, 'transaction');
    const synced: string[] = [];
    const storage = createLocalStorage(files, {
      syncPath: async (file) => {
        await fsync(file);
        synced.push(file);
      },
    });
    const store = submissionStore(services.db, { maxRows: 64, windowMs: 0 }, { files: storage });
    const [given] = await recordsWithFiles(storage, 1);
    const object = path.join(files, given!.files[0]!.storageKey);

    const written = await store.write({
      ...given!,
      duplicateFilter: { contentHash: 'c'.repeat(64), windowSeconds: 60 },
    });

    expect(written.outcome).toBe('stored');
    expect(synced).toEqual([object, path.dirname(object)]);
  });

  it('without a storage to sync (S3, or none given), files are taken as durable already', () => {
    expect(submissionStore(services.db).makesFilesDurable).toBe(false);
  });
});
