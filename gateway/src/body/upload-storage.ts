import { randomBytes } from 'node:crypto';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type multer from '@koa/multer';
import { StreamedCheckPass } from '../files/streamed-checks.js';
import type { ReceivedFile, StreamedChecks } from '../files/types.js';

/** What multer reports of a file this engine stored. */
export type UploadedFile = multer.File & { sha256?: string; streamed?: StreamedChecks };

/**
 * Creates the temporary file, making its folder only when it is missing (the first upload, or after
 * someone removed it): a mkdir per upload was a share of the upload path's file-system calls.
 */
async function createTemporary(tempDir: string, target: string): Promise<FileHandle> {
  try {
    return await open(target, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
    await mkdir(tempDir, { recursive: true });
    return open(target, 'wx', 0o600);
  }
}

// multer 2's storage-engine contract (the type package still describes multer 1).
interface StorageEngine {
  _handleFile(req: unknown, file: { stream: Readable }, callback: (error: Error | null, info?: object) => void): void;
  _removeFile(req: unknown, file: { path: string }, callback: (error: Error | null) => void): void;
}

export interface UploadStorage {
  engine: multer.StorageEngine;
  /**
   * Stops every upload still being written and resolves once each has removed its file. After a
   * failed parse, multer may answer before the engine has finished (or even started) writing a
   * file whose part was cut off, and a part left half-read would hold its file open for good.
   */
  abort(): Promise<void>;
}

/**
 * A multer storage engine that streams each upload to a random temporary file while computing its
 * sha256 and size and taking the checks that read every byte (streamed-checks.ts). Every path it
 * creates is recorded in `created`, so the request can remove them all in every outcome, even those
 * multer never reports.
 */
export function createUploadStorage(tempDir: string, created: string[]): UploadStorage {
  const writing = new Map<Readable, Promise<void>>();
  const engine: StorageEngine = {
    _handleFile(_req, file, callback) {
      const target = path.join(tempDir, `upload-${randomBytes(16).toString('hex')}`);
      created.push(target);
      const checks = new StreamedCheckPass();
      const written = createTemporary(tempDir, target)
        .then((handle) => pipeline(file.stream, checks, handle.createWriteStream()))
        .then(
          () => callback(null, { path: target, ...checks.results() }),
          // A failed file is the engine's to remove: multer keeps no path for it.
          (error: unknown) => rm(target, { force: true }).finally(() => callback(error as Error)),
        );
      const settled = written.then(
        () => undefined,
        () => undefined,
      );
      writing.set(file.stream, settled);
      void settled.then(() => writing.delete(file.stream));
    },
    _removeFile(_req, file, callback) {
      rm(file.path, { force: true }).then(
        () => callback(null),
        (error: unknown) => callback(error as Error),
      );
    },
  };
  return {
    engine: engine as unknown as multer.StorageEngine,
    abort: async () => {
      for (const stream of writing.keys()) {
        stream.destroy();
      }
      await Promise.all(writing.values());
    },
  };
}

/** The shape the file pipeline takes, from what multer collected. */
export function toReceivedFile(file: UploadedFile): ReceivedFile {
  return {
    field: file.fieldname,
    originalName: file.originalname,
    path: file.path,
    size: file.size,
    sha256: file.sha256 ?? '',
    ...(file.streamed ? { streamed: file.streamed } : {}),
  };
}
