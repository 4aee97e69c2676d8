import { inspectArchive } from './archive/index.js';
import type { Scanner } from './scan/scanner.js';
import { detectType } from './type-stage.js';
import type { ArchiveLimits, ReceivedFile, TypedFile } from './types.js';

/** Runs every file through the stages in order; the first refusal throws its AppError. */
export type FilePipeline = (
  files: readonly ReceivedFile[],
  allowedMimeTypes: readonly string[],
) => Promise<TypedFile[]>;

export interface FilePipelineOptions {
  scanner: Scanner;
  archiveLimits: ArchiveLimits;
}

/** type → archive/document inspection → antivirus. Storage comes after, in the submission command. */
export function createFilePipeline({ scanner, archiveLimits }: FilePipelineOptions): FilePipeline {
  return async (files, allowedMimeTypes) => {
    const typed: TypedFile[] = [];
    for (const file of files) {
      const typedFile = await detectType(file, allowedMimeTypes);
      await inspectArchive(typedFile, archiveLimits);
      await scanner.scanFile(typedFile.path);
      typed.push(typedFile);
    }
    return typed;
  };
}
