// The file checks themselves, loaded by pipeline.ts on the first upload (file-type, the ZIP and OLE
// readers and the archive rules are megabytes an idle gateway without uploads never needs).
import { inspectArchive, isInspectedArchiveType, SharedZip } from './archive/index.js';
import { detectType } from './type-stage.js';
import type { FilePipeline, FilePipelineOptions, InspectionResult } from './pipeline-types.js';
import type { TypedFile } from './types.js';

/** type → archive/document inspection → antivirus. Storage comes after, in the submission command. */
export function createFileStages({ scanner, archiveLimits, onInspected }: FilePipelineOptions): FilePipeline {
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
