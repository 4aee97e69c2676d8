// Polyglots: an image or a PDF that is also an archive to the tools that look for one where they
// look for it. A ZIP reader follows an end record in the file's last 64 to 72 KiB to its central
// directory, and 7-Zip opens a zip whose local headers it finds past an image's end, junk after the
// zip or not; WinRAR and 7-Zip find a RAR or 7z signature anywhere. We look where they look
// (zip-records.ts, content-end.ts) and refuse a match: the archive inside would never have been
// inspected. An end marker alone does not say where the content ends: a ZIP comment can end in
// `%%EOF`, hence the end record's search in the tail whatever precedes it.
import { open, type FileHandle } from 'node:fs/promises';
import { contentEndWalkerFor, type ContentEndWalker } from './content-end.js';
import { ZIP_READER_SEARCH_BYTES, ZipRecordWatch, zipEndRecordIn } from './zip-records.js';

/** Six-byte signatures: by chance in 10 MiB of compressed data about once in 30 million files. */
const SIGNATURES: readonly { kind: AppendedArchive; bytes: Buffer }[] = [
  { kind: 'rar', bytes: Buffer.from('Rar!\x1a\x07', 'latin1') },
  { kind: 'sevenzip', bytes: Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
];
/** Bytes of one window kept at the head of the next, so a signature across the two is found. */
const OVERLAP_BYTES = 5;
/** Bytes that say which format a file is, for its content-end walker. */
const HEAD_BYTES = 12;
/** Window of the read-back scan of a file not checked as it streamed in. */
export const READ_BACK_WINDOW_BYTES = 64 * 1024;

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
 * Looks, in bytes that arrive chunk by chunk, for a ZIP record (zip-records.ts) after the end of
 * the image or PDF they make (content-end.ts). Files of other formats have no such end: false.
 */
export class ZipAfterEndWatch {
  private readonly records = new ZipRecordWatch();
  private head: Buffer[] = [];
  private walker: ContentEndWalker | null | undefined;
  private size = 0;

  update(chunk: Buffer): void {
    this.records.update(chunk);
    this.size += chunk.length;
    if (this.walker === undefined) {
      this.head.push(chunk);
      if (this.size >= HEAD_BYTES) {
        this.startWalker();
      }
      return;
    }
    this.walker?.update(chunk, this.size - chunk.length);
  }

  /** Once the last chunk is in. */
  verdict(): boolean {
    if (this.walker === undefined) {
      this.startWalker();
    }
    const last = this.records.lastRecord;
    return this.walker !== null && this.walker !== undefined && last >= 0 && last >= this.walker.contentEnd(this.size);
  }

  private startWalker(): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.walker = contentEndWalkerFor(head.subarray(0, HEAD_BYTES));
    this.walker?.update(head, 0);
  }
}

/** What the scans of every byte saw. */
export interface AppendedScan {
  /** A RAR or 7z signature anywhere, or null. */
  signature: AppendedArchive | null;
  /** A ZIP record after the content's own end. */
  zipAfterEnd: boolean;
}

/** Both scans of every byte, fed chunk by chunk. */
export class AppendedArchiveWatch {
  private readonly signatures = new SignatureWatch();
  private readonly zip = new ZipAfterEndWatch();

  update(chunk: Buffer): void {
    this.signatures.update(chunk);
    this.zip.update(chunk);
  }

  /** Once the last chunk is in. */
  scan(): AppendedScan {
    return { signature: this.signatures.signature, zipAfterEnd: this.zip.verdict() };
  }
}

/** The scans of a whole buffer. */
export function scanOf(content: Buffer): AppendedScan {
  const watch = new AppendedArchiveWatch();
  watch.update(content);
  return watch.scan();
}

function verdictOf(scan: AppendedScan): AppendedArchive | null {
  return scan.zipAfterEnd ? 'zip' : scan.signature;
}

/**
 * The archive a whole file's content of a non-archive type also is, or null; `streamed`, when the
 * same bytes were scanned as they streamed in, spares scanning them again.
 */
export async function appendedArchiveIn(content: Buffer, streamed?: AppendedScan): Promise<AppendedArchive | null> {
  const tailStart = Math.max(0, content.length - ZIP_READER_SEARCH_BYTES);
  const readAt = (position: number, length: number) => Promise.resolve(content.subarray(position, position + length));
  if (await zipEndRecordIn(content.subarray(tailStart), tailStart, readAt)) {
    return 'zip';
  }
  return verdictOf(streamed ?? scanOf(content));
}

/** Reads the file window by window into one buffer, fed to the scans of every byte. */
async function scanFile(handle: FileHandle, size: number): Promise<AppendedScan> {
  const watch = new AppendedArchiveWatch();
  const window = Buffer.allocUnsafe(Math.min(Math.max(size, 1), READ_BACK_WINDOW_BYTES));
  for (let position = 0; position < size;) {
    const { bytesRead } = await handle.read(window, 0, window.length, position);
    if (bytesRead === 0) {
      break;
    }
    watch.update(window.subarray(0, bytesRead));
    position += bytesRead;
  }
  return watch.scan();
}

/**
 * The archive a file of a non-archive type also is, or null. First the file's last bytes, where a
 * ZIP reader looks for its end record; then every byte for a RAR or 7z signature and for a ZIP
 * record after the content's end, unless `streamed` gives what the scans saw as the file was written.
 */
export async function findAppendedArchive(path: string, streamed?: AppendedScan): Promise<AppendedArchive | null> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, ZIP_READER_SEARCH_BYTES);
    const tail = Buffer.allocUnsafe(tailLength);
    const { bytesRead } = await handle.read(tail, 0, tailLength, size - tailLength);
    const readAt = async (position: number, length: number): Promise<Buffer> => {
      const bytes = Buffer.alloc(length);
      const read = await handle.read(bytes, 0, length, position);
      return bytes.subarray(0, read.bytesRead);
    };
    if (await zipEndRecordIn(tail.subarray(0, bytesRead), size - tailLength, readAt)) {
      return 'zip';
    }
    return verdictOf(streamed ?? (await scanFile(handle, size)));
  } finally {
    await handle.close();
  }
}
