// The file pipeline a submission's uploads go through. Its stages (file-stages.ts: file-type, the
// ZIP and OLE readers, the archive and document rules) are imported on the first upload, not at
// start: a gateway that only takes form fields never loads them (docs/performance.md).
import type { FilePipeline, FilePipelineOptions } from './pipeline-types.js';

export type { FilePipeline, FilePipelineOptions, InspectionResult } from './pipeline-types.js';

/** type → archive/document inspection → antivirus. Storage comes after, in the submission command. */
export function createFilePipeline(options: FilePipelineOptions): FilePipeline {
  let stages: Promise<FilePipeline> | undefined;
  return async (files, allowedMimeTypes) => {
    if (files.length === 0) {
      return [];
    }
    // A failed import is tried again by the next upload rather than remembered.
    stages ??= import('./file-stages.js').then(
      ({ createFileStages }) => createFileStages(options),
      (error: unknown) => {
        stages = undefined;
        throw error;
      },
    );
    return (await stages)(files, allowedMimeTypes);
  };
}
