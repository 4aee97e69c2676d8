// The work a checked, durable upload adds to what bare multer does (receive the body, write the
// file), each part timed apart in this process on the bench's own files (the 100 KB PNG and the
// 10 MB PDF): the upload's single pass as it streams in (sha256, size, the whole-file checks:
// archive signatures and UTF-8; streamed-checks.ts), the file checks after it (the gateway's file
// pipeline given that pass's verdicts: type by extension and content from the file's head, the tail
// for an appended zip; no antivirus, as in the bench), and making the file durable in local storage
// as the gateway does: renamed into DATA_DIR/files, then fsynced with the other files of its commit
// group and their folders at once (a group of STORE_GROUP; alone too, for comparison). With bare
// multer's CPU per request, and the plain case's fixed costs, they make the floors the upload cases
// are compared with (report.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MIME_PDF, MIME_PNG } from '@intake/shared/mime-types';
import { createLocalStorage } from '@intake/shared/storage';
import { pdf } from '@intake/test-files';
import { DEFAULT_ARCHIVE_LIMITS } from '@intake/gateway/archive';
import { createFilePipeline } from '@intake/gateway/file-pipeline';
import { StreamedChecker } from '@intake/gateway/streamed-checks';
import { cpuPerAsyncCall, cpuPerCall } from './cpu-per-call.js';
import { measureInFreshProcess } from './fresh-process.js';
import { noisePng } from './payloads.js';

export interface UploadCost {
  fileChecksMicros: number;
  /** The single pass: sha256, size and the whole-file checks over the chunks as they arrive. */
  streamedPassMicros: number;
  /** Renamed into storage and made durable in a group of STORE_GROUP files (the gateway's way). */
  durableStoreMicros: number;
  /** The same, each file made durable alone (fsync, rename, folder fsync: a lone request). */
  durableStoreAloneMicros: number;
}

/** Files made durable together: the rows per commit the gateway's groups held under the bench's load. */
export const STORE_GROUP = 10;

export interface UploadCosts {
  png: UploadCost;
  pdf: UploadCost;
}

/** Chunks of the size an upload arrives in from the socket. */
const CHUNK_BYTES = 64 * 1024;

interface Sample {
  name: string;
  mimeType: string;
  bytes: Buffer;
  /** Moves into storage timed, after a few unmeasured: a count, as each consumes a prepared file. */
  storeCalls: number;
}

/** measureUploadCosts in a fresh process of its own (upload-costs-process.ts), as the bench runs it. */
export async function measureUploadCostsApart(seconds: number): Promise<UploadCosts> {
  return measureInFreshProcess(
    new URL('./upload-costs-process.js', import.meta.url),
    [String(seconds)],
    "the upload costs' process",
  );
}

export async function measureUploadCosts(seconds: number): Promise<UploadCosts> {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-bench-upload-'));
  try {
    const png = await measureSample(
      dir,
      { name: 'photo.png', mimeType: MIME_PNG, bytes: noisePng(100 * 1024), storeCalls: 1000 },
      seconds,
    );
    const pdfCost = await measureSample(
      dir,
      { name: 'report.pdf', mimeType: MIME_PDF, bytes: pdf(10 * 1024 * 1024), storeCalls: 60 },
      seconds,
    );
    return { png, pdf: pdfCost };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function measureSample(dir: string, sample: Sample, seconds: number): Promise<UploadCost> {
  const file = path.join(dir, sample.name);
  await writeFile(file, sample.bytes);
  const pipeline = createFilePipeline({
    scanner: { scanFile: async () => undefined },
    archiveLimits: DEFAULT_ARCHIVE_LIMITS,
  });
  const singlePass = () => {
    const checker = new StreamedChecker();
    for (let at = 0; at < sample.bytes.length; at += CHUNK_BYTES) {
      checker.update(sample.bytes.subarray(at, at + CHUNK_BYTES));
    }
    return checker.results();
  };
  const streamedPassMicros = cpuPerCall(singlePass, seconds).micros;
  const received = { field: 'file', originalName: sample.name, path: file, ...singlePass() };
  const fileChecksMicros = (await cpuPerAsyncCall(() => pipeline([received], [sample.mimeType]), seconds)).micros;

  return {
    fileChecksMicros,
    streamedPassMicros,
    durableStoreMicros: await durableStoreCpu(dir, sample, STORE_GROUP),
    durableStoreAloneMicros: await durableStoreCpu(dir, sample, 1),
  };
}

/** CPU per file moved into storage and made durable, `group` files at a time. */
async function durableStoreCpu(dir: string, sample: Sample, group: number): Promise<number> {
  const storage = createLocalStorage(path.join(dir, 'storage'));
  const uploads = await mkdtemp(path.join(dir, 'uploads-'));
  const warmup = Math.ceil(sample.storeCalls / 10 / group) * group;
  const total = warmup + sample.storeCalls;
  for (let i = 0; i < total; i++) {
    await writeFile(path.join(uploads, `upload-${i}`), sample.bytes);
  }
  // As the gateway: each request puts its file, then the store makes the group's files durable.
  const storeGroup = async (first: number) => {
    const positions = Array.from({ length: Math.min(group, total - first) }, (_, offset) => first + offset);
    const keys = await Promise.all(
      positions.map((i) => storage.putFile(path.join(uploads, `upload-${i}`), { move: true, syncLater: true })),
    );
    const failures = await storage.makeDurable!(keys);
    if (failures.some((failure) => failure !== undefined)) {
      throw new Error('bench: a file could not be made durable');
    }
  };
  for (let i = 0; i < warmup; i += group) {
    await storeGroup(i);
  }
  const cpuAtStart = process.cpuUsage();
  for (let i = warmup; i < total; i += group) {
    await storeGroup(i);
  }
  const cpu = process.cpuUsage(cpuAtStart);
  await rm(path.join(dir, 'storage'), { recursive: true, force: true });
  await rm(uploads, { recursive: true, force: true });
  return (cpu.user + cpu.system) / sample.storeCalls;
}
