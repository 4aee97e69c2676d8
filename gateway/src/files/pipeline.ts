import { inspectArchive, isInspectedArchiveType, SharedZip } from './archive/index.js';
import type { Scanner } from './scan/scanner.js';
import { detectType } from './type-stage.js';
import type { ArchiveLimits, ReceivedFile, TypedFile } from './types.js';

/** Runs every file through the stages in order; the first refusal throws its AppError. */
export type FilePipeline = (
  files: readonly ReceivedFile[],
  allowedMimeTypes: readonly string[],
) => Promise<TypedFile[]>;

export type InspectionResult = 'passed' | 'refused';

export interface FilePipelineOptions {
  scanner: Scanner;
  archiveLimits: ArchiveLimits;
  /** Called after each archive or document inspection (metrics hook); never for other types. */
  onInspected?: (durationMs: number, mimeType: string, result: InspectionResult) => void;
}

/** type → archive/document inspection → antivirus. Storage comes after, in the submission command. */
export function createFilePipeline({ scanner, archiveLimits, onInspected }: FilePipelineOptions): FilePipeline {
  const inspect = async (file: TypedFile, zip: SharedZip): Promise<void> => {
    if (!onInspected || !isInspectedArchiveType(file.mimeType)) {
      await inspectArchive(file, archiveLimits, zip);
      return;
    }
    const started = performance.now();
    let result: InspectionResult = 'refused';
    try {
      await inspectArchive(file, archiveLimits, zip);
      result = 'passed';
    } finally {
      onInspected(performance.now() - started, file.mimeType, result);
    }
  };
  return async (files, allowedMimeTypes) => {
    const typed: TypedFile[] = [];
    for (const file of files) {
      // An OOXML package is opened once, by the type stage, and inspected on that same opening.
      const zip = new SharedZip(file.path);
      let typedFile: TypedFile;
      try {
        typedFile = await detectType(file, allowedMimeTypes, { zip });
        await inspect(typedFile, zip);
      } finally {
        zip.close();
      }
      await scanner.scanFile(typedFile.path);
      typed.push(typedFile);
    }
    return typed;
  };
}
