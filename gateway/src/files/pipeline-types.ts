// The file pipeline's types, apart from pipeline.ts so that the stages it imports on first use
// (file-stages.ts) can name them without an import cycle.
import type { Scanner } from './scan/scanner.js';
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
