// First stage of the file pipeline: the name says a type, the content must say the same.
// The extension (the last one) must name an allowed type (`file_type_not_allowed`); then the magic
// bytes must agree (`file_type_mismatch`). Only the head of the file is read, except for text (which
// has no magic: every byte must be UTF-8), OOXML (two small parts read through the zip central
// directory), and images and PDF (every byte looked at for an archive appended to them, and their
// last 80 KiB for a zip's end record; a file of up to 128 KiB is read whole, once, for its type and
// those scans). For an upload, the checks of every byte were taken as it streamed in
// (streamed-checks.ts) and are not read again.
import { open, readFile } from 'node:fs/promises';
import { AppError } from '@intake/shared/errors';
import {
  MIME_7Z,
  MIME_DOCX,
  MIME_GIF,
  MIME_JPEG,
  MIME_PDF,
  MIME_PNG,
  MIME_PPTX,
  MIME_RAR,
  MIME_TEXT,
  MIME_WEBP,
  MIME_XLSX,
  MIME_ZIP,
  mimeTypeForExtension,
} from '@intake/shared/mime-types';
import type { KnownMimeType } from '@intake/shared/mime-types';
import { FileTypeParser } from 'file-type';
import type { FileTypeResult } from 'file-type';
import { appendedArchiveIn, findAppendedArchive } from './appended-archive.js';
import type { SharedZip } from './archive/opened-zip.js';
import { assertSafeFileName, cleanFileName, extensionOf } from './file-name.js';
import { DEFAULT_OOXML_LIMITS, inspectOoxml } from './ooxml.js';
import type { OoxmlLimits } from './ooxml.js';
import { checkUtf8Text, type TextVerdict } from './text.js';
import type { ReceivedFile, StreamedChecks, TypedFile } from './types.js';

/**
 * Types a received file by extension and content, or throws an AppError: `body_invalid` (control
 * characters in the name), `file_type_not_allowed`, `file_type_mismatch`, `archive_macro` (a
 * macro-enabled OOXML package named as an allowed document), `archive_unreadable` or `archive_bomb`
 * (an OOXML package that cannot be inspected safely).
 */
export async function detectType(
  file: ReceivedFile,
  allowed: readonly string[],
  options: DetectTypeOptions = {},
): Promise<TypedFile> {
  assertSafeFileName(file.originalName);
  const name = cleanFileName(file.originalName);
  const extension = extensionOf(name);
  const mimeType = mimeTypeForExtension(extension);
  if (mimeType === undefined || !allowed.some((type) => type.toLowerCase() === mimeType)) {
    // The detail never echoes the name or extension: both are submitted values.
    throw new AppError('file_type_not_allowed', 'The file extension is not one of the types this form accepts.');
  }
  await assertContentIs(mimeType, file.path, options, file.size, file.streamed);
  return { ...file, mimeType, extension, name };
}

export interface DetectTypeOptions {
  /** Limits of the OOXML package scan; pass the archive stage's `maxEntries` to keep them in step. */
  ooxmlLimits?: OoxmlLimits;
  /**
   * Makes the magic-byte parser of one detection; file-type's own by default (tests give one with
   * their own detectors). One per detection: a FileTypeParser keeps the file it is reading on
   * itself, so detections sharing one at the same moment read each other's bytes.
   */
  fileTypeParser?: () => FileTypeParser;
  /** The opening of an OOXML package to read it through, left open for the archive stage. */
  zip?: SharedZip;
}

const newParser = (): FileTypeParser => new FileTypeParser();

/** An I/O failure on our own temporary file is a server fault, not a bad upload. */
function isSystemError(error: unknown): boolean {
  // Duck-typed: errors from Node's own modules may come from another realm (test sandboxes).
  return typeof error === 'object' && error !== null && 'syscall' in error;
}

/**
 * What file-type says the content is. file-type 22 returns undefined for input it cannot parse,
 * but a detector may still throw on content nobody foresaw; that is the upload's fault, so it is
 * a 400 (`file_type_mismatch`), never a 500. Our own I/O errors stay server faults.
 */
async function identify(content: string | Buffer, parser: FileTypeParser): Promise<FileTypeResult | undefined> {
  try {
    return typeof content === 'string' ? await parser.fromFile(content) : await parser.fromBuffer(content);
  } catch (error) {
    if (isSystemError(error)) {
      throw error;
    }
    throw new AppError('file_type_mismatch', 'The file content cannot be identified.', { cause: error });
  }
}

/**
 * Up to this size, a file judged by its magic bytes is read whole, once, for both file-type and the
 * appended-archive scan: four file-system calls instead of about twelve (file-type reads a few
 * bytes at a time, each a call), which were most of a 100 KB image's checks.
 */
const READ_WHOLE_BYTES = 128 * 1024;

/**
 * Throws unless the file's content is of `mimeType`. `size`, when known, lets a small file be read
 * once; `streamed`, when the upload was checked as it streamed in, spares a big one its whole-file reads.
 */
export async function assertContentIs(
  mimeType: KnownMimeType,
  path: string,
  options: DetectTypeOptions = {},
  size?: number,
  streamed?: StreamedChecks,
): Promise<void> {
  switch (mimeType) {
    case MIME_TEXT:
      return assertText(path, (options.fileTypeParser ?? newParser)(), streamed?.text);
    case MIME_DOCX:
    case MIME_XLSX:
    case MIME_PPTX:
      return assertOoxml(mimeType, path, options.ooxmlLimits ?? DEFAULT_OOXML_LIMITS, options.zip);
    case MIME_ZIP:
      // What file-type calls zip-based (docx, odt, epub, jar…) starts with these signatures, and is
      // a zip: the archive stage inspects its entries whatever the container says it holds.
      if (!(await startsWithZipSignature(path))) {
        throw mismatch(mimeType);
      }
      return;
    default: {
      const whole = size !== undefined && size <= READ_WHOLE_BYTES ? await readFile(path) : undefined;
      const detected = await identify(whole ?? path, (options.fileTypeParser ?? newParser)());
      if (detected === undefined || !MAGIC_EXTENSIONS[mimeType].includes(detected.ext)) {
        throw mismatch(mimeType);
      }
      if (ARCHIVE_TYPES.has(mimeType)) {
        return;
      }
      const scanned = streamed && { signature: streamed.archiveSignature, zipAfterEnd: streamed.zipAfterEnd };
      const appended = whole ? await appendedArchiveIn(whole, scanned) : await findAppendedArchive(path, scanned);
      if (appended !== null) {
        throw new AppError('file_type_mismatch', `The file (${mimeType}) is also an archive: one is appended to it.`);
      }
    }
  }
}

// Archives are inspected whole by the archive stage; other types must not hide one (appended-archive.ts).
const ARCHIVE_TYPES: ReadonlySet<string> = new Set([MIME_RAR, MIME_7Z]);

// file-type's `ext` for each type judged by its magic bytes alone. APNG is a PNG whose first frame
// every PNG decoder shows. file-type calls RAR `application/x-rar-compressed`, hence `ext`.
type MagicMimeType = Exclude<
  KnownMimeType,
  typeof MIME_TEXT | typeof MIME_ZIP | typeof MIME_DOCX | typeof MIME_XLSX | typeof MIME_PPTX
>;

const MAGIC_EXTENSIONS: Record<MagicMimeType, readonly string[]> = {
  [MIME_JPEG]: ['jpg'],
  [MIME_PNG]: ['png', 'apng'],
  [MIME_GIF]: ['gif'],
  [MIME_WEBP]: ['webp'],
  [MIME_PDF]: ['pdf'],
  [MIME_RAR]: ['rar'],
  [MIME_7Z]: ['7z'],
};

// Text has no magic: anything file-type recognises (an image, but also XML, RTF, vCard…) is not
// plain text, and the rest must be UTF-8 without NUL. An empty file is empty text.
async function assertText(path: string, parser: FileTypeParser, streamed?: TextVerdict): Promise<void> {
  if ((await identify(path, parser)) !== undefined) {
    throw mismatch(MIME_TEXT);
  }
  const verdict = streamed ?? (await checkUtf8Text(path));
  if (!verdict.ok) {
    throw new AppError(
      'file_type_mismatch',
      verdict.reason === 'nul' ? 'A text/plain file holds a NUL byte.' : 'A text/plain file is not valid UTF-8.',
    );
  }
}

// file-type may call a document `docx` or only `zip`; the package's own content types decide.
async function assertOoxml(
  mimeType: KnownMimeType,
  path: string,
  limits: OoxmlLimits,
  zip: SharedZip | undefined,
): Promise<void> {
  if (!(await startsWithZipSignature(path))) {
    throw mismatch(mimeType);
  }
  const inspection = await inspectOoxml(path, limits, zip);
  switch (inspection.kind) {
    case 'document':
      if (inspection.mimeType !== mimeType) {
        throw mismatch(mimeType);
      }
      return;
    case 'macro':
      throw new AppError('archive_macro', 'The document is a macro-enabled Office package.');
    case 'unreadable':
      throw new AppError('archive_unreadable', 'The document package cannot be read.');
    case 'over_limits':
      throw new AppError('archive_bomb', 'The document package is too large to inspect.');
    case 'other':
    case 'not_ooxml':
      throw mismatch(mimeType);
  }
}

// A local file header (`PK\3\4`), the end of central directory of an empty zip (`PK\5\6`), or the
// marker of a single-segment spanned zip (`PK\7\8`).
const ZIP_SIGNATURES = [
  Buffer.from('PK\x03\x04', 'latin1'),
  Buffer.from('PK\x05\x06', 'latin1'),
  Buffer.from('PK\x07\x08', 'latin1'),
];

async function startsWithZipSignature(path: string): Promise<boolean> {
  const head = Buffer.alloc(4);
  const handle = await open(path, 'r');
  try {
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && ZIP_SIGNATURES.some((signature) => signature.equals(head));
  } finally {
    await handle.close();
  }
}

function mismatch(mimeType: string): AppError {
  return new AppError('file_type_mismatch', `The file content is not of the type its extension names (${mimeType}).`);
}
