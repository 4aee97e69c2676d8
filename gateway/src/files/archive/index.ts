// Archive inspection stage: looks inside ZIP-based uploads (ZIP, DOCX, XLSX, PPTX) and 7z/RAR, never
// extracting to disk, and refuses bombs, unsafe paths, executables, macros, active content and
// unreadable archives with the contract's codes. Other types pass through untouched.
import { MIME_7Z, MIME_DOCX, MIME_PPTX, MIME_RAR, MIME_XLSX, MIME_ZIP } from '@intake/shared/mime-types';
import type { ArchiveLimits } from '../types.js';
import { DEFAULT_ARCHIVE_LIMITS } from './budget.js';
import { inspectZip, inspectZipBuffer } from './inspect-zip.js';
import type { SharedZip } from './opened-zip.js';

export { ArchiveBudget, DEFAULT_ARCHIVE_LIMITS, MAX_NESTED_ARCHIVE_BYTES } from './budget.js';
export { inspectZip } from './inspect-zip.js';
export { SharedZip } from './opened-zip.js';
// For the bench, which measures inspection in its own process and closes the pool after.
export { closeSevenZipPool } from './sevenzip-pool.js';

const ZIP_BASED = new Set<string>([MIME_ZIP, MIME_DOCX, MIME_XLSX, MIME_PPTX]);
const SEVEN_ZIP_BASED = new Set<string>([MIME_7Z, MIME_RAR]);

/** True when `inspectArchive` looks inside files of this (already verified) MIME type. */
export function isInspectedArchiveType(mimeType: string): boolean {
  return ZIP_BASED.has(mimeType) || SEVEN_ZIP_BASED.has(mimeType);
}

/**
 * Inspects an uploaded file whose type stage verdict is an archive type; resolves for anything
 * else. Throws an AppError (`archive_*`) when the archive must be refused. A ZIP-based file is read
 * through `zip` when given (the opening the type stage used).
 */
export async function inspectArchive(
  file: { path: string; mimeType: string },
  limits: Readonly<ArchiveLimits> = DEFAULT_ARCHIVE_LIMITS,
  zip?: SharedZip,
): Promise<void> {
  if (ZIP_BASED.has(file.mimeType)) {
    await inspectZip(file.path, limits, zip);
    return;
  }
  if (SEVEN_ZIP_BASED.has(file.mimeType)) {
    // 7z and RAR go through 7z-wasm, a heavy module: load it only when such a file arrives.
    const { inspectSevenZip } = await import('./inspect-sevenzip.js');
    await inspectSevenZip(file.path, file.mimeType, limits, { inspectZip: inspectZipBuffer });
  }
}
