// Polyglots: an image or a PDF with an archive appended after its end marker (`IEND`, `%%EOF`) is
// still a valid image or PDF, and also an archive to the tools that look for one where they look
// for it. A ZIP reader finds its end-of-central-directory record in the file's last 64 KiB (give
// or take a few stray bytes, archive/zip-end.ts); WinRAR and 7-Zip find a RAR or 7z signature
// anywhere. We look where they look, and refuse a match: the archive inside would never have been
// inspected. Reading past the end marker instead would not do,
// since the marker can be repeated inside the archive (a ZIP comment ending in `%%EOF`).
import { open, type FileHandle } from 'node:fs/promises';
import { bytesAfterZipEnd, ZIP_END_SEARCH_BYTES } from './archive/zip-end.js';

/** Six-byte signatures: by chance in 10 MiB of compressed data about once in 30 million files. */
const SIGNATURES: readonly { kind: AppendedArchive; bytes: Buffer }[] = [
  { kind: 'rar', bytes: Buffer.from('Rar!\x1a\x07', 'latin1') },
  { kind: 'sevenzip', bytes: Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
];
/** Bytes of one window kept at the head of the next, so a signature across the two is found. */
const OVERLAP_BYTES = 5;

export type AppendedArchive = 'zip' | 'rar' | 'sevenzip';

/** The RAR or 7z signature anywhere in `bytes`, or null. */
export function signatureIn(bytes: Buffer): AppendedArchive | null {
  return SIGNATURES.find((signature) => bytes.includes(signature.bytes))?.kind ?? null;
}

/**
 * Looks for a RAR or 7z signature in bytes that arrive chunk by chunk (an upload as it streams to
 * its temporary file), so a big file need not be read back for it: the last few bytes of each
 * chunk are kept to find a signature that spans two.
 */
export class SignatureWatch {
  private carried = Buffer.alloc(0);
  private found: AppendedArchive | null = null;

  update(chunk: Buffer): void {
    if (this.found !== null) {
      return;
    }
    const seam = Buffer.concat([this.carried, chunk.subarray(0, OVERLAP_BYTES)]);
    this.found = signatureIn(seam) ?? signatureIn(chunk);
    this.carried = Buffer.concat([this.carried, chunk.subarray(-OVERLAP_BYTES)]).subarray(-OVERLAP_BYTES);
  }

  /** The signature seen anywhere in the bytes so far, or null. */
  get signature(): AppendedArchive | null {
    return this.found;
  }
}

/**
 * The archive a whole file's content of a non-archive type also is, or null; `streamedSignature`,
 * when a SignatureWatch saw the same bytes stream in, spares searching them again.
 */
export function appendedArchiveIn(content: Buffer, streamedSignature?: AppendedArchive | null): AppendedArchive | null {
  const tail = content.subarray(Math.max(0, content.length - ZIP_END_SEARCH_BYTES));
  if (bytesAfterZipEnd(tail) !== null) {
    return 'zip';
  }
  return streamedSignature !== undefined ? streamedSignature : signatureIn(content);
}

/**
 * Reads the file window by window into the one buffer, the last few bytes of each carried to the
 * front of the next. One buffer per file rather than one per chunk: every upload passes here, and
 * the buffers' memory counts towards V8's next full collection (docs/performance.md).
 */
async function findSignature(handle: FileHandle, size: number, window: Buffer): Promise<AppendedArchive | null> {
  let carried = 0;
  for (let position = 0; position < size;) {
    const { bytesRead } = await handle.read(window, carried, window.length - carried, position);
    if (bytesRead === 0) {
      break;
    }
    const filled = carried + bytesRead;
    const found = signatureIn(window.subarray(0, filled));
    if (found !== null) {
      return found;
    }
    carried = Math.min(OVERLAP_BYTES, filled);
    window.copyWithin(0, filled - carried, filled);
    position += bytesRead;
  }
  return null;
}

/**
 * The archive a file of a non-archive type also is, or null. First the file's last bytes, where a
 * ZIP reader looks for its end record ending the file (give or take the few stray bytes they
 * tolerate); then the whole file for a RAR or 7z signature, unless those last bytes were all of it,
 * or unless `streamedSignature` gives what a SignatureWatch saw as the file was written.
 */
export async function findAppendedArchive(
  path: string,
  streamedSignature?: AppendedArchive | null,
): Promise<AppendedArchive | null> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, ZIP_END_SEARCH_BYTES);
    const window = Buffer.allocUnsafe(tailLength + OVERLAP_BYTES);
    const { bytesRead } = await handle.read(window, 0, tailLength, size - tailLength);
    const tail = window.subarray(0, bytesRead);
    if (size <= tailLength) {
      return appendedArchiveIn(tail, streamedSignature);
    }
    if (bytesAfterZipEnd(tail) !== null) {
      return 'zip';
    }
    return streamedSignature !== undefined ? streamedSignature : await findSignature(handle, size, window);
  } finally {
    await handle.close();
  }
}
