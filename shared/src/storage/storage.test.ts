import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { AppError } from '../errors/index.js';
import { closedLoopbackEndpoint, s3StorageConfig, startTestS3 } from '../test/s3.js';
import { createLocalStorage } from './local-storage.js';
import { createS3Storage } from './s3-storage.js';
import type { Storage, StoredObject } from './storage.js';

// One contract, two drivers: local disk, and S3 against a real S3-protocol server on loopback.

interface Driver {
  storage: Storage;
  /** The same driver pointed at a backend that cannot be reached. */
  unreachable: Storage;
  /** Writes an object that Intake did not make (not of its key shape) behind the driver's back. */
  plantForeign(name: string): Promise<void>;
  close(): Promise<void>;
}

const drivers: [string, () => Promise<Driver>][] = [
  [
    'local',
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'intake-storage-'));
      const blocker = path.join(root, 'not-a-folder');
      await writeFile(blocker, '');
      return {
        storage: createLocalStorage(path.join(root, 'files')),
        // A root below a regular file can be neither created nor written.
        unreachable: createLocalStorage(path.join(blocker, 'files')),
        plantForeign: async (name) => {
          await mkdir(path.dirname(path.join(root, 'files', name)), { recursive: true });
          await writeFile(path.join(root, 'files', name), 'foreign');
        },
        close: () => rm(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3',
    async () => {
      const s3 = await startTestS3();
      return {
        storage: createS3Storage(s3.config),
        unreachable: createS3Storage(s3StorageConfig(await closedLoopbackEndpoint(), s3.bucket)),
        plantForeign: async (name) => {
          await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: name, Body: 'foreign' }));
        },
        close: s3.close,
      };
    },
  ],
];

const KEY_SHAPE = /^[a-f0-9]{2}\/[a-f0-9]{40}$/;

async function sourceFile(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-source-'));
  const file = path.join(dir, 'upload');
  await writeFile(file, bytes);
  return file;
}

async function collect(iterable: AsyncIterable<StoredObject>): Promise<StoredObject[]> {
  const objects: StoredObject[] = [];
  for await (const object of iterable) {
    objects.push(object);
  }
  return objects;
}

async function readAll(stream: Readable): Promise<{ bytes: Buffer; chunks: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return { bytes: Buffer.concat(chunks), chunks: chunks.length };
}

describe.each(drivers)('%s storage', (_name, start) => {
  let driver: Driver;
  let storage: Storage;

  beforeAll(async () => {
    driver = await start();
    storage = driver.storage;
  });

  afterAll(async () => {
    await driver?.close();
  });

  it('stores several megabytes and streams back the very same bytes', async () => {
    // Over the 5 MiB part size, so S3 takes the multipart path.
    const bytes = randomBytes(12 * 1024 * 1024 + 7);
    const key = await storage.putFile(await sourceFile(bytes));
    expect(key).toMatch(KEY_SHAPE);

    const object = await storage.get(key);
    expect(object).toBeDefined();
    expect(object!.size).toBe(bytes.length);
    expect(object!.stream).toBeInstanceOf(Readable);
    const read = await readAll(object!.stream);
    expect(read.chunks).toBeGreaterThan(1);
    expect(createHash('sha256').update(read.bytes).digest('hex')).toBe(
      createHash('sha256').update(bytes).digest('hex'),
    );
  });

  it('stores an empty file and a small one under fresh random keys', async () => {
    const empty = await storage.putFile(await sourceFile(Buffer.alloc(0)));
    const source = await sourceFile(Buffer.from('hello'));
    const first = await storage.putFile(source);
    const second = await storage.putFile(source);
    expect(new Set([empty, first, second]).size).toBe(3);

    const emptyObject = await storage.get(empty);
    expect(emptyObject!.size).toBe(0);
    expect((await readAll(emptyObject!.stream)).bytes.length).toBe(0);
    expect((await readAll((await storage.get(second))!.stream)).bytes.toString()).toBe('hello');
  });

  it('takes a file given with move: stored, and the source gone once it resolves; without move, kept', async () => {
    const bytes = randomBytes(70_000);
    const moved = await sourceFile(bytes);
    const key = await storage.putFile(moved, { move: true });
    expect(existsSync(moved)).toBe(false);
    expect((await readAll((await storage.get(key))!.stream)).bytes.equals(bytes)).toBe(true);
    const kept = await sourceFile(bytes);
    await storage.putFile(kept);
    expect(existsSync(kept)).toBe(true);
  });

  it('deletes an object, and deleting it again is fine', async () => {
    const key = await storage.putFile(await sourceFile(Buffer.from('to be removed')));
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('answers undefined for a key that was never stored', async () => {
    expect(await storage.get(`ab/${'0'.repeat(40)}`)).toBeUndefined();
    await expect(storage.delete(`cd/${'1'.repeat(40)}`)).resolves.toBeUndefined();
  });

  it('refuses anything that is not a storage key before touching the backend', async () => {
    await expect(storage.get('../../etc/passwd')).rejects.toThrow('invalid storage key');
    await expect(storage.delete('ab/../../x')).rejects.toThrow('invalid storage key');
  });

  it('lists stored objects of its key shape with their age, and nothing else', async () => {
    const kept = await storage.putFile(await sourceFile(Buffer.from('listed')));
    const removed = await storage.putFile(await sourceFile(Buffer.from('gone')));
    await storage.delete(removed);
    await driver.plantForeign('notes/readme.txt');
    await driver.plantForeign(`ab/${'2'.repeat(40)}.extra`);

    const objects = await collect(storage.list());
    const keys = objects.map((object) => object.key);
    expect(keys).toContain(kept);
    expect(keys).not.toContain(removed);
    expect(keys.every((key) => KEY_SHAPE.test(key))).toBe(true);
    const listed = objects.find((object) => object.key === kept)!;
    // Dates made outside jest's sandbox fail toBeInstanceOf(Date); the value is what matters.
    expect(Math.abs(listed.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('is ready when the backend answers, not when it does not', async () => {
    expect(await storage.ping()).toBe(true);
    expect(await driver.unreachable.ping()).toBe(false);
  });

  it('fails fast with service_unavailable when the backend cannot be reached', async () => {
    const source = await sourceFile(randomBytes(64 * 1024));
    const started = Date.now();
    const error = await driver.unreachable.putFile(source).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('service_unavailable');
    expect((error as AppError).status).toBe(503);
    expect((error as AppError).retryAfter).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('local storage leftovers of a crashed write', () => {
  it('removes stale temporary files, keeps fresh ones and whole objects', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'intake-storage-'));
    const storage = createLocalStorage(root);
    const key = await storage.putFile(await sourceFile(Buffer.from('whole')));
    await mkdir(path.join(root, 'ab'), { recursive: true });
    const stale = path.join(root, 'ab', `${'3'.repeat(40)}.${'a'.repeat(12)}.tmp`);
    const fresh = path.join(root, 'ab', `${'4'.repeat(40)}.${'b'.repeat(12)}.tmp`);
    await writeFile(stale, 'half');
    await writeFile(fresh, 'half');
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    await utimes(stale, hourAgo, hourAgo);

    expect(await storage.removeStaleTemporaries!(new Date(Date.now() - 60_000))).toBe(1);
    const left = await readdir(path.join(root, 'ab'));
    expect(left).toContain(path.basename(fresh));
    expect(left).not.toContain(path.basename(stale));
    expect(await storage.get(key)).toBeDefined();
    await rm(root, { recursive: true, force: true });
  });
});

describe('local storage given a file to move', () => {
  it('renames it into place on one filesystem: the bytes stored, the source gone, no copy left behind', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'intake-storage-'));
    const storage = createLocalStorage(root);
    const bytes = randomBytes(100_000);
    const source = await sourceFile(bytes);
    const key = await storage.putFile(source, { move: true });
    expect(existsSync(source)).toBe(false);
    expect((await readAll((await storage.get(key))!.stream)).bytes.equals(bytes)).toBe(true);
    expect(await readdir(path.join(root, key.slice(0, 2)))).toEqual([key.slice(3)]);

    // A fan-out folder removed behind its back is made again, for a move and for a copy.
    await rm(path.join(root, key.slice(0, 2)), { recursive: true });
    const again = await storage.putFile(await sourceFile(bytes), { move: true });
    expect((await storage.get(again))!.size).toBe(bytes.length);
    await rm(root, { recursive: true, force: true });
  });

  it('copies it across filesystems (tmpfs to disk), then removes the source', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'intake-storage-'));
    const storage = createLocalStorage(root);
    const elsewhere = await mkdtemp('/dev/shm/intake-storage-source-');
    const source = path.join(elsewhere, 'upload');
    const bytes = randomBytes(50_000);
    await writeFile(source, bytes);
    const key = await storage.putFile(source, { move: true });
    expect(existsSync(source)).toBe(false);
    expect((await readAll((await storage.get(key))!.stream)).bytes.equals(bytes)).toBe(true);
    await rm(root, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('refuses a source that does not exist with service_unavailable, leaving nothing', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'intake-storage-'));
    const storage = createLocalStorage(root);
    await expect(storage.putFile(path.join(root, 'missing'), { move: true })).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    expect(await Array.fromAsync(storage.list())).toEqual([]);
    await rm(root, { recursive: true, force: true });
  });
});

describe('local storage making files durable', () => {
  /** A storage whose fsyncs are the real ones, recorded; `failing` makes one path's fsync fail. */
  async function recorded(): Promise<{
    root: string;
    storage: Storage;
    synced: string[];
    fail: (file: string) => void;
  }> {
    const root = await mkdtemp(path.join(tmpdir(), 'intake-storage-'));
    const synced: string[] = [];
    let failing = '';
    const storage = createLocalStorage(root, {
      syncPath: async (file) => {
        if (file === failing) {
          throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
        }
        const handle = await open(file, 'r');
        await handle.sync().finally(() => handle.close());
        synced.push(file);
      },
    });
    return { root, storage, synced, fail: (file) => (failing = file) };
  }

  it('without syncLater, fsyncs the file before its rename and its folder after', async () => {
    const { root, storage, synced } = await recorded();
    const source = await sourceFile(Buffer.from('alone'));
    const key = await storage.putFile(source, { move: true });
    expect(synced).toEqual([source, path.join(root, key.slice(0, 2))]);
    await rm(root, { recursive: true, force: true });
  });

  it('with syncLater, fsyncs nothing until makeDurable, which syncs each file, then each folder once', async () => {
    const { root, storage, synced } = await recorded();
    const keys = await Promise.all(
      Array.from({ length: 40 }, async () =>
        storage.putFile(await sourceFile(randomBytes(1000)), { move: true, syncLater: true }),
      ),
    );
    expect(synced).toEqual([]);
    expect(await storage.makeDurable!(keys)).toEqual(keys.map(() => undefined));
    const folders = [...new Set(keys.map((key) => path.join(root, key.slice(0, 2))))];
    expect(synced.slice(0, keys.length).sort()).toEqual(keys.map((key) => path.join(root, key)).sort());
    expect(synced.slice(keys.length).sort()).toEqual(folders.sort());
    await rm(root, { recursive: true, force: true });
  });

  it('answers the failure for the keys whose file or folder failed, and undefined for the others', async () => {
    const { root, storage, fail } = await recorded();
    const keys = await Promise.all(
      Array.from({ length: 3 }, async () =>
        storage.putFile(await sourceFile(Buffer.from('x')), { move: true, syncLater: true }),
      ),
    );
    fail(path.join(root, keys[1]!));
    const answers = await storage.makeDurable!(keys);
    expect(answers[0]).toBeUndefined();
    expect(answers[1]).toMatchObject({ code: 'service_unavailable', retryAfter: 5 });
    expect(answers[2]).toBeUndefined();
    fail(path.join(root, keys[2]!.slice(0, 2)));
    expect((await storage.makeDurable!([keys[2]!]))[0]).toMatchObject({ code: 'service_unavailable' });
    await rm(root, { recursive: true, force: true });
  });
});

describe('S3 unreachable on a read', () => {
  it('reports service_unavailable rather than a missing object', async () => {
    const storage = createS3Storage(s3StorageConfig(await closedLoopbackEndpoint(), 'intake-test'));
    await expect(storage.get(`ab/${'5'.repeat(40)}`)).rejects.toMatchObject({ code: 'service_unavailable' });
  });
});
