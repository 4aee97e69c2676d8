// The shapes passed between the stages of the file pipeline:
// type → archive/document inspection → antivirus → storage.
// Every stage reads the uploaded bytes from a temporary file (never a whole file in memory) and
// refuses a file by throwing an AppError with the contract's code; the checks that must see every
// byte are taken as the upload streams in instead (streamed-checks.ts).
import type { AppendedArchive } from './appended-archive.js';
import type { TextVerdict } from './text.js';

/** A file as received from multipart parsing, before any check. */
export interface ReceivedFile {
  /** Multipart field name, as sent. */
  field: string;
  /** Original file name, as sent (untrusted, may hold anything). */
  originalName: string;
  /** Temporary file holding the bytes. */
  path: string;
  size: number;
  /** Hex sha256 of the bytes, computed while streaming. */
  sha256: string;
  /**
   * What the checks that read every byte saw while the upload streamed to its temporary file, so
   * the type stage need not read a big file back; absent for a file not received that way.
   */
  streamed?: StreamedChecks;
}

/** The verdicts of the whole-file checks, taken in the upload's single pass (streamed-checks.ts). */
export interface StreamedChecks {
  /** A RAR or 7z signature anywhere in the bytes (appended-archive.ts), or null. */
  archiveSignature: AppendedArchive | null;
  /** A ZIP record after the end of the image or PDF the bytes make (appended-archive.ts). */
  zipAfterEnd: boolean;
  /** Whether the bytes are UTF-8 without NUL (text.ts): the content check of `text/plain`. */
  text: TextVerdict;
}

/** The type stage's verdict: one of the allowed MIME types, agreed by name and content. */
export interface TypedFile extends ReceivedFile {
  mimeType: string;
  /** The last extension, lower case, without the dot (e.g. `pdf`). */
  extension: string;
  /** The cleaned original name, kept as data only. */
  name: string;
}

/** Limits of archive inspection; every one configurable, with documented defaults. */
export interface ArchiveLimits {
  maxEntries: number;
  maxTotalUncompressedBytes: number;
  /** Compression ratio above which an entry is a bomb (once past `ratioGraceBytes`). */
  maxRatio: number;
  ratioGraceBytes: number;
  /** Archives inside archives, the outer one being depth 1. */
  maxNestingDepth: number;
}
