// The work a checked, durable 100 KB PNG upload adds to what bare multer does (receive the body,
// write the file), each part timed apart in this process on the bench's own PNG: the file checks
// (the gateway's file pipeline: type by extension and content, the appended-archive scan; no
// antivirus, as in the bench), the sha256 the gateway computes while the upload streams in, and
// making the file durable in local storage (fsync, then rename into DATA_DIR/files). With bare
// multer's CPU per request and the plain case's fixed costs, they make the floor the PNG case's
// CPU target is compared with (report.ts).
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MIME_PNG } from '@intake/shared/mime-types';
import { createLocalStorage } from '@intake/shared/storage';
import { DEFAULT_ARCHIVE_LIMITS } from '@intake/gateway/archive';
import { createFilePipeline } from '@intake/gateway/file-pipeline';
import { cpuPerAsyncCall, cpuPerCall } from './cpu-per-call.js';
import { noisePng } from './payloads.js';

export interface UploadCosts {
  fileChecksMicros: number;
  hashMicros: number;
  durableStoreMicros: number;
}

/** Chunks of the size an upload arrives in from the socket. */
const CHUNK_BYTES = 64 * 1024;

export async function measureUploadCosts(seconds: number): Promise<UploadCosts> {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-bench-upload-'));
  try {
    const png = noisePng(100 * 1024);
    const file = path.join(dir, 'photo.png');
    await writeFile(file, png);
    const pipeline = createFilePipeline({
      scanner: { scanFile: async () => undefined },
      archiveLimits: DEFAULT_ARCHIVE_LIMITS,
    });
    const received = { field: 'file', originalName: 'photo.png', path: file, size: png.length, sha256: '' };
    const fileChecksMicros = (await cpuPerAsyncCall(() => pipeline([received], [MIME_PNG]), seconds)).micros;

    const hashMicros = cpuPerCall(() => {
      const hash = createHash('sha256');
      for (let at = 0; at < png.length; at += CHUNK_BYTES) {
        hash.update(png.subarray(at, at + CHUNK_BYTES));
      }
      hash.digest('hex');
    }, seconds).micros;

    const durableStoreMicros = await durableStoreCpu(dir, png);
    return { fileChecksMicros, hashMicros, durableStoreMicros };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Moves that many prepared uploads into local storage: a count, not a time, as each consumes a file. */
const STORE_WARMUP_CALLS = 100;
const STORE_CALLS = 1000;

async function durableStoreCpu(dir: string, png: Buffer): Promise<number> {
  const storage = createLocalStorage(path.join(dir, 'storage'));
  const uploads = path.join(dir, 'uploads');
  await mkdir(uploads);
  const total = STORE_WARMUP_CALLS + STORE_CALLS;
  for (let i = 0; i < total; i++) {
    await writeFile(path.join(uploads, `upload-${i}`), png);
  }
  const move = (i: number) => storage.putFile(path.join(uploads, `upload-${i}`), { move: true });
  for (let i = 0; i < STORE_WARMUP_CALLS; i++) {
    await move(i);
  }
  const cpuAtStart = process.cpuUsage();
  for (let i = STORE_WARMUP_CALLS; i < total; i++) {
    await move(i);
  }
  const cpu = process.cpuUsage(cpuAtStart);
  return (cpu.user + cpu.system) / STORE_CALLS;
}
