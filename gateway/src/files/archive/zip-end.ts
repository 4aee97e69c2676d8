// Where a ZIP ends. yauzl wants the end-of-central-directory record (EOCD) and its comment to end
// the file exactly; about one real DOCX/PPTX in 120 carries a stray byte or two after it (written
// by a tool that pads or appends a newline), and Word, LibreOffice, Python's zipfile and 7-Zip all
// open those. We find the record the way they do and hand yauzl the file without the stray bytes.
// A few bytes cannot hide anything: fewer than the 30 bytes of the smallest local header.
import { open } from 'node:fs/promises';

/** Most bytes tolerated after the EOCD comment. */
export const MAX_BYTES_AFTER_ZIP_END = 16;

const EOCD_SIGNATURE = Buffer.from('PK\x05\x06', 'latin1');
const EOCD_BYTES = 22;

/** How many of the file's last bytes to read to find its EOCD: record, longest comment, slack. */
export const ZIP_END_SEARCH_BYTES = EOCD_BYTES + 0xffff + MAX_BYTES_AFTER_ZIP_END;

/**
 * Given the last bytes of a file (up to ZIP_END_SEARCH_BYTES), the number of bytes after the EOCD
 * nearest the end whose comment ends at most MAX_BYTES_AFTER_ZIP_END bytes before the end of the
 * file; null when there is no such record.
 */
export function bytesAfterZipEnd(tail: Buffer): number | null {
  let at = tail.lastIndexOf(EOCD_SIGNATURE);
  while (at >= 0) {
    if (at + EOCD_BYTES <= tail.length) {
      const after = tail.length - (at + EOCD_BYTES + tail.readUInt16LE(at + 20));
      if (after >= 0 && after <= MAX_BYTES_AFTER_ZIP_END) {
        return after;
      }
    }
    at = at === 0 ? -1 : tail.lastIndexOf(EOCD_SIGNATURE, at - 1);
  }
  return null;
}

/** The size a ZIP reader should see: without the few stray bytes after the EOCD, if any. */
export function zipSizeOfBuffer(bytes: Buffer): number {
  const tail = bytes.subarray(Math.max(0, bytes.length - ZIP_END_SEARCH_BYTES));
  return bytes.length - (bytesAfterZipEnd(tail) ?? 0);
}

/** The last bytes of the file at `path` (up to ZIP_END_SEARCH_BYTES) and its size. */
export async function readZipTail(path: string): Promise<{ tail: Buffer; size: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, ZIP_END_SEARCH_BYTES);
    const tail = Buffer.alloc(length);
    const { bytesRead } = await handle.read(tail, 0, length, size - length);
    return { tail: tail.subarray(0, bytesRead), size };
  } finally {
    await handle.close();
  }
}

/** The size a ZIP reader should see for the file at `path`. */
export async function zipSizeOfFile(path: string): Promise<number> {
  const { tail, size } = await readZipTail(path);
  return size - (bytesAfterZipEnd(tail) ?? 0);
}
