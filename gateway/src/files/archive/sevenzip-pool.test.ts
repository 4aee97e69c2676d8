import { afterAll, describe, expect, it } from '@jest/globals';
import { sevenZipOf } from '../../test/sevenzip-samples.js';
import { SevenZipPool, SevenZipWorkerError } from './sevenzip-pool.js';

const pools: SevenZipPool[] = [];

function pool(options: ConstructorParameters<typeof SevenZipPool>[0] = {}): SevenZipPool {
  const created = new SevenZipPool(options);
  pools.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

async function listOnce(target: SevenZipPool, bytes: Uint8Array, timeoutMs = 5000): Promise<number> {
  return target.run(timeoutMs, async (session) => {
    const file = await session.load(bytes);
    return (await session.list(file, 100)).entryCount;
  });
}

describe('SevenZipPool', () => {
  it('keeps a worker warm between sessions', async () => {
    const archive = await sevenZipOf([
      { name: 'a.txt', data: 'a' },
      { name: 'b.txt', data: 'b' },
    ]);
    const target = pool({ maxWorkers: 2 });
    expect(await listOnce(target, archive)).toBe(2);
    expect(await listOnce(target, archive)).toBe(2);
    expect(await listOnce(target, archive)).toBe(2);
    expect(target.size).toBe(1);
  });

  it('does not keep a session’s files in an idle worker', async () => {
    const archive = await sevenZipOf([{ name: 'a.txt', data: 'a' }]);
    const target = pool({ maxWorkers: 1 });
    const file = await target.run(5000, (session) => session.load(archive));
    await expect(target.run(5000, (session) => session.read(file))).rejects.toBeInstanceOf(SevenZipWorkerError);
  });

  it('kills a worker past the deadline and replaces it', async () => {
    const archive = await sevenZipOf([{ name: 'a.txt', data: 'a' }]);
    const target = pool({ maxWorkers: 1 });
    const late = target.run(1, async (session) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return session.list(await session.load(archive), 10);
    });
    await expect(late).rejects.toMatchObject({ reason: 'timeout' });
    expect(target.size).toBe(0);
    expect(await listOnce(target, archive)).toBe(1);
  });

  it('retires a worker after 7-Zip throws, and after its session quota', async () => {
    const archive = await sevenZipOf([{ name: 'a.txt', data: 'a' }]);
    const target = pool({ maxWorkers: 1, maxSessionsPerWorker: 2 });
    // Reading a missing file throws inside the worker: its state is no longer trusted.
    await expect(target.run(5000, (session) => session.read('/nowhere'))).rejects.toMatchObject({
      reason: 'failure',
    });
    expect(target.size).toBe(0);
    await listOnce(target, archive);
    expect(target.size).toBe(1);
    await listOnce(target, archive);
    expect(target.size).toBe(0);
  });

  it('queues sessions beyond its size', async () => {
    const archive = await sevenZipOf([{ name: 'a.txt', data: 'a' }]);
    const target = pool({ maxWorkers: 1 });
    const counts = await Promise.all(Array.from({ length: 4 }, () => listOnce(target, archive)));
    expect(counts).toEqual([1, 1, 1, 1]);
    expect(target.size).toBe(1);
  });

  it('raises heap limits too small for a worker to start (Node would abort the process)', async () => {
    const archive = await sevenZipOf([{ name: 'a.txt', data: 'a' }]);
    const target = pool({ maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 });
    expect(await listOnce(target, archive)).toBe(1);
  });

  it('refuses work once closed', async () => {
    const target = pool();
    await target.close();
    await expect(target.run(1000, async () => 1)).rejects.toThrow('closed');
  });
});
