// writePrivateFile on real files: a target readable by others is replaced by a new file of mode 0600,
// and a stream that breaks midway leaves the target as it was and no temporary file behind.
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { writePrivateFile } from './private-file.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'intake-private-file-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readableByOthers(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  await chmod(file, 0o644);
  return file;
}

it('replaces a file of mode 0644 with a new one of mode 0600, from text or from a stream', async () => {
  const text = await readableByOthers('secrets.json', 'old\n');
  await writePrivateFile(text, '["new"]\n');
  expect(await readFile(text, 'utf8')).toBe('["new"]\n');
  expect((await stat(text)).mode & 0o777).toBe(0o600);

  const streamed = await readableByOthers('export.csv', 'old\n');
  await writePrivateFile(streamed, Readable.from(['id\n', '1\n', '2\n']));
  expect(await readFile(streamed, 'utf8')).toBe('id\n1\n2\n');
  expect((await stat(streamed)).mode & 0o777).toBe(0o600);
  expect((await readdir(dir)).sort()).toEqual(['export.csv', 'secrets.json']);
});

it('leaves the target as it was, and no temporary file, when the stream breaks midway', async () => {
  const file = await readableByOthers('broken.ndjson', 'kept\n');
  async function* broken() {
    yield '{"id":1}\n';
    throw new Error('connection reset');
  }
  await expect(writePrivateFile(file, Readable.from(broken()))).rejects.toThrow('connection reset');
  expect(await readFile(file, 'utf8')).toBe('kept\n');
  expect((await readdir(dir)).filter((name) => name.startsWith('broken.ndjson'))).toEqual(['broken.ndjson']);
});
