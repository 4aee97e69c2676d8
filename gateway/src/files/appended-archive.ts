// Polyglots: an image or a PDF with an archive appended after its end marker (`IEND`, `%%EOF`) is
// still a valid image or PDF, and also an archive to the tools that look for one where they look
// for it. A ZIP reader finds its end-of-central-directory record in the file's last 64 KiB (give
// or take a few stray bytes, archive/zip-end.ts); WinRAR and 7-Zip find a RAR or 7z signature
// anywhere. We look where they look, and refuse a match: the archive inside would never have been
// inspected. Reading past the end marker instead would not do,
// since the marker can be repeated inside the archive (a ZIP comment ending in `%%EOF`).
import { createReadStream } from 'node:fs';
import { bytesAfterZipEnd, readZipTail } from './archive/zip-end.js';

/** Six-byte signatures: by chance in 10 MiB of compressed data about once in 30 million files. */
const SIGNATURES: readonly { kind: AppendedArchive; bytes: Buffer }[] = [
  { kind: 'rar', bytes: Buffer.from('Rar!\x1a\x07', 'latin1') },
  { kind: 'sevenzip', bytes: Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
];
const OVERLAP_BYTES = 5;
const CHUNK_BYTES = 64 * 1024;

export type AppendedArchive = 'zip' | 'rar' | 'sevenzip';

/** True when a ZIP reader would find an end-of-central-directory record ending the file (give or take the few stray bytes they tolerate). */
async function endsWithZipDirectory(path: string): Promise<boolean> {
  const { tail } = await readZipTail(path);
  return bytesAfterZipEnd(tail) !== null;
}

async function findSignature(path: string): Promise<AppendedArchive | null> {
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  let carry = Buffer.alloc(0);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const window = Buffer.concat([carry, chunk]);
      const found = SIGNATURES.find((signature) => window.includes(signature.bytes));
      if (found !== undefined) {
        return found.kind;
      }
      carry = window.subarray(Math.max(0, window.length - OVERLAP_BYTES));
    }
    return null;
  } finally {
    stream.destroy();
  }
}

/** The archive a file of a non-archive type also is, or null. Streams the file once. */
export async function findAppendedArchive(path: string): Promise<AppendedArchive | null> {
  if (await endsWithZipDirectory(path)) {
    return 'zip';
  }
  return findSignature(path);
}
