import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { FormSchema, StoredFileSchema, SubmissionSchema } from '../entities/index.js';
import type { Logger } from '../logger/index.js';
import { testDriverName } from '../test/database.js';
import { makeForm, makeSite } from '../test/factories.js';
import { closedLoopbackEndpoint, s3StorageConfig, startTestS3, type TestS3 } from '../test/s3.js';
import { createTestServices } from '../test/services.js';
import { createLocalStorage } from './local-storage.js';
import { startOrphanSweeper, sweepOrphans } from './orphan-sweep.js';
import { createS3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

type TestServices = Awaited<ReturnType<typeof createTestServices>>;

const HOUR = 60 * 60 * 1000;
const later = (ms: number) => () => new Date(Date.now() + ms);

let services: TestServices;
let s3: TestS3;
let formId: string;

beforeAll(async () => {
  services = await createTestServices();
  s3 = await startTestS3();
  const { site } = await makeSite(services);
  formId = (await makeForm(services, site)).id;
}, 60_000);

afterAll(async () => {
  await s3?.close();
  await services?.close();
});

async function sourceFile(text: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-sweep-'));
  const file = path.join(dir, 'upload');
  await writeFile(file, text);
  return file;
}

/** An object with a committed StoredFile row, as an accepted submission leaves it. */
async function storeReferenced(storage: Storage, text: string): Promise<string> {
  const storageKey = await storage.putFile(await sourceFile(text));
  const em = services.db.em.fork();
  const submission = em.create(SubmissionSchema, {
    form: em.getReference(FormSchema, formId),
    data: {},
    idempotencyKey: null,
  });
  em.create(StoredFileSchema, {
    submission,
    position: 0,
    field: 'file',
    name: 'a.txt',
    mimeType: 'text/plain',
    size: text.length,
    sha256: createHash('sha256').update(text).digest('hex'),
    storageKey,
  });
  await em.flush();
  return storageKey;
}

/** An object that a killed process stored without committing its row. */
async function storeOrphan(storage: Storage): Promise<string> {
  return storage.putFile(await sourceFile(randomBytes(32).toString('hex')));
}

async function exists(storage: Storage, key: string): Promise<boolean> {
  const object = await storage.get(key);
  object?.stream.destroy();
  return object !== undefined;
}

function capturingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines };
}

const drivers: [string, () => Storage][] = [
  ['local', () => createLocalStorage(path.join(services.config.dataDir, 'files'))],
  ['s3', () => createS3Storage(s3.config)],
];

describe.each(drivers)(`orphan sweep on %s storage (${testDriverName()})`, (_name, makeStorage) => {
  let storage: Storage;
  let sweepServices: Pick<TestServices, 'db' | 'logger'> & { storage: Storage };

  beforeAll(() => {
    storage = makeStorage();
    sweepServices = { db: services.db, logger: services.logger, storage };
  });

  it('keeps referenced objects and young orphans, removes old orphans', async () => {
    const referenced = await storeReferenced(storage, 'kept by its row');
    const orphan = await storeOrphan(storage);

    // Everything is younger than the grace period: nothing goes.
    const young = await sweepOrphans(sweepServices, { graceMs: HOUR });
    expect(young.removed).toBe(0);
    expect(young.scanned).toBeGreaterThanOrEqual(2);
    expect(await exists(storage, orphan)).toBe(true);

    // Two hours on, the orphan is past the grace period; the referenced object stays.
    const old = await sweepOrphans(sweepServices, { graceMs: HOUR, now: later(2 * HOUR) });
    expect(old.removed).toBeGreaterThanOrEqual(1);
    expect(await exists(storage, orphan)).toBe(false);
    expect(await exists(storage, referenced)).toBe(true);
    expect((await storage.get(referenced))!.size).toBe('kept by its row'.length);
  });

  it('checks rows in batches and decides each key of every batch', async () => {
    const referenced = [await storeReferenced(storage, 'r1'), await storeReferenced(storage, 'r2')];
    const orphans = [await storeOrphan(storage), await storeOrphan(storage), await storeOrphan(storage)];

    const result = await sweepOrphans(sweepServices, { graceMs: HOUR, now: later(2 * HOUR), batchSize: 2 });
    expect(result.removed).toBe(3);
    for (const key of orphans) {
      expect(await exists(storage, key)).toBe(false);
    }
    for (const key of referenced) {
      expect(await exists(storage, key)).toBe(true);
    }
  });
});

describe('orphan sweep of local leftovers', () => {
  it('removes stale upload files and half-written objects, keeps fresh ones', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'intake-sweep-root-'));
    const uploadDir = path.join(root, 'tmp');
    const storage = createLocalStorage(path.join(root, 'files'));
    await mkdir(uploadDir);
    await mkdir(path.join(root, 'files', 'ab'), { recursive: true });
    const hourAgo = new Date(Date.now() - HOUR);
    const staleUpload = path.join(uploadDir, `upload-${'a'.repeat(32)}`);
    const freshUpload = path.join(uploadDir, `upload-${'b'.repeat(32)}`);
    const unrelated = path.join(uploadDir, 'keep-me.txt');
    const staleTemporary = path.join(root, 'files', 'ab', `${'c'.repeat(40)}.${'d'.repeat(12)}.tmp`);
    for (const file of [staleUpload, freshUpload, unrelated, staleTemporary]) {
      await writeFile(file, 'bytes');
    }
    for (const file of [staleUpload, unrelated, staleTemporary]) {
      await utimes(file, hourAgo, hourAgo);
    }

    const result = await sweepOrphans(
      { db: services.db, logger: services.logger, storage },
      { graceMs: 10 * 60 * 1000, uploadDir },
    );
    expect(result).toMatchObject({ uploads: 1, temporaries: 1, removed: 0 });
    expect((await readdir(uploadDir)).sort()).toEqual(['keep-me.txt', path.basename(freshUpload)]);
    expect(await readdir(path.join(root, 'files', 'ab'))).toEqual([]);
    await rm(root, { recursive: true, force: true });
  });

  it('does nothing when the folders do not exist yet', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'intake-sweep-root-'));
    const result = await sweepOrphans(
      { db: services.db, logger: services.logger, storage: createLocalStorage(path.join(root, 'files')) },
      { graceMs: 0, uploadDir: path.join(root, 'tmp') },
    );
    expect(result).toEqual({ scanned: 0, removed: 0, temporaries: 0, uploads: 0 });
    await rm(root, { recursive: true, force: true });
  });
});

describe('orphan sweeper', () => {
  it('sweeps at start and then periodically, and stops', async () => {
    const storage = createS3Storage(s3.config);
    const { logger, lines } = capturingLogger();
    const first = await storeOrphan(storage);
    const sweeper = startOrphanSweeper({ db: services.db, logger, storage }, { graceMs: 0, intervalMs: 100 });
    await sweeper.idle();
    expect(await exists(storage, first)).toBe(false);
    expect(lines.some((line) => line.msg === 'orphan sweep finished' && Number(line.removed) >= 1)).toBe(true);

    // Stored after the first sweep: the next one, an interval later, removes it.
    const second = await storeOrphan(storage);
    const deadline = Date.now() + 10_000;
    while ((await exists(storage, second)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await exists(storage, second)).toBe(false);

    await sweeper.stop();
    const third = await storeOrphan(storage);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await exists(storage, third)).toBe(true);
    await storage.delete(third);
  });

  it('with interval 0 sweeps only at start', async () => {
    const storage = createS3Storage(s3.config);
    const sweeper = startOrphanSweeper(
      { db: services.db, logger: services.logger, storage },
      { graceMs: 0, intervalMs: 0 },
    );
    await sweeper.idle();
    const later = await storeOrphan(storage);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await exists(storage, later)).toBe(true);
    await sweeper.stop();
    await storage.delete(later);
  });

  it('logs a failed sweep (storage unreachable) without credentials, and stops cleanly', async () => {
    const storage = createS3Storage(s3StorageConfig(await closedLoopbackEndpoint(), s3.bucket));
    const { logger, lines } = capturingLogger();
    const sweeper = startOrphanSweeper({ db: services.db, logger, storage }, { graceMs: 0, intervalMs: 60_000 });
    await sweeper.idle();
    await sweeper.stop();
    const failure = lines.find((line) => line.msg?.toString().startsWith('orphan sweep failed'));
    expect(failure).toBeDefined();
    expect(JSON.stringify(failure)).not.toContain('S3RVER');
  });
});
