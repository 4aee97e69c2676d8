// The ZIP records that make a file open as a zip, looked for the way ZIP tools look for them.
// 7-Zip searches the first 8 MiB for a local file header; Python's zipfile and Info-ZIP's unzip
// search the last 64 KiB (unzip, reading whole 8 KiB blocks, up to about 72 KiB) for an end record
// and follow it to its central directory. A record is checked past its signature, so four bytes
// that happen to spell one in compressed image data do not count (docs/security.md).

const LOCAL_HEADER = Buffer.from('PK\x03\x04', 'latin1');
const END_RECORD = Buffer.from('PK\x05\x06', 'latin1');
const CENTRAL_HEADER = Buffer.from('PK\x01\x02', 'latin1');
const ZIP64_LOCATOR = Buffer.from('PK\x06\x07', 'latin1');
const END_RECORD_BYTES = 22;

/**
 * Compression methods some ZIP tool extracts: stored, shrunk, reduced (2–5), imploded, deflated,
 * deflate64, bzip2, LZMA, zstd (20 and 93), xz, PPMd and AES-encrypted. A header naming another
 * method holds nothing any of them would unpack.
 */
const EXTRACTED_METHODS: ReadonlySet<number> = new Set([0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 14, 20, 93, 95, 98, 99]);

/** Bytes a record is judged on: a local header's method ends at 10, the end record's counts at 12. */
export const ZIP_RECORD_BYTES = 12;

/**
 * A local file header naming a method ZIP tools extract, or an end record whose two disk numbers
 * agree and whose two entry counts agree, as every ZIP writer leaves them. In random bytes about one
 * position in 2^44 passes, where the bare signature passes one in 2^32.
 */
export function isZipRecordAt(bytes: Buffer, at: number): boolean {
  if (at < 0 || at + ZIP_RECORD_BYTES > bytes.length) {
    return false;
  }
  if (bytes.compare(LOCAL_HEADER, 0, 4, at, at + 4) === 0) {
    return EXTRACTED_METHODS.has(bytes.readUInt16LE(at + 8));
  }
  return (
    bytes.compare(END_RECORD, 0, 4, at, at + 4) === 0 &&
    bytes.readUInt16LE(at + 4) === bytes.readUInt16LE(at + 6) &&
    bytes.readUInt16LE(at + 8) === bytes.readUInt16LE(at + 10)
  );
}

/** Where the last ZIP record (isZipRecordAt) in `bytes` starts, or -1. */
export function lastZipRecordIn(bytes: Buffer): number {
  let last = -1;
  for (const signature of [LOCAL_HEADER, END_RECORD]) {
    for (let at = bytes.indexOf(signature); at >= 0; at = bytes.indexOf(signature, at + 1)) {
      if (at > last && isZipRecordAt(bytes, at)) {
        last = at;
      }
    }
  }
  return last;
}

/**
 * Finds the last ZIP record in bytes that arrive chunk by chunk: the last few bytes of each chunk are
 * kept, so a record cut between two chunks is judged once its twelve bytes are in.
 */
export class ZipRecordWatch {
  private carried = Buffer.alloc(0);
  private position = 0;
  private last = -1;

  update(chunk: Buffer): void {
    const seam = Buffer.concat([this.carried, chunk.subarray(0, ZIP_RECORD_BYTES - 1)]);
    const inSeam = lastZipRecordIn(seam);
    if (inSeam >= 0) {
      this.last = Math.max(this.last, this.position - this.carried.length + inSeam);
    }
    const inChunk = lastZipRecordIn(chunk);
    if (inChunk >= 0) {
      this.last = Math.max(this.last, this.position + inChunk);
    }
    this.position += chunk.length;
    this.carried = Buffer.concat([this.carried, chunk.subarray(-(ZIP_RECORD_BYTES - 1))]).subarray(
      -(ZIP_RECORD_BYTES - 1),
    );
  }

  /** The absolute position of the last record seen, or -1. */
  get lastRecord(): number {
    return this.last;
  }
}

/**
 * How many of a file's last bytes hold an end record a ZIP reader finds: Python's zipfile searches
 * the last 65,557 (the record and the longest comment); Info-ZIP's unzip the last 66,000 rounded up
 * to whole 8 KiB blocks, up to 74,192. Rounded up to 80 KiB.
 */
export const ZIP_READER_SEARCH_BYTES = 80 * 1024;

/**
 * True when the `tail` of a file (its last bytes, starting at `tailStart`) holds an end record whose
 * central directory sits where ZIP readers look for it: right before the record, `size of the
 * directory` bytes back (whatever precedes the zip, an image included), starting with a central
 * header; or a ZIP64 locator right before it. `readAt` gives bytes before the tail.
 */
export async function zipEndRecordIn(
  tail: Buffer,
  tailStart: number,
  readAt: (position: number, length: number) => Promise<Buffer>,
): Promise<boolean> {
  for (let at = tail.lastIndexOf(END_RECORD); at >= 0; at = at === 0 ? -1 : tail.lastIndexOf(END_RECORD, at - 1)) {
    if (at + END_RECORD_BYTES > tail.length) {
      continue;
    }
    const record = tailStart + at;
    const directorySize = tail.readUInt32LE(at + 12);
    const directory = record - directorySize;
    if (
      directorySize > 0 &&
      directory >= 0 &&
      (await bytesAt(tail, tailStart, directory, 4, readAt)).equals(CENTRAL_HEADER)
    ) {
      return true;
    }
    if ((await bytesAt(tail, tailStart, record - 20, 4, readAt)).equals(ZIP64_LOCATOR)) {
      return true;
    }
  }
  return false;
}

async function bytesAt(
  tail: Buffer,
  tailStart: number,
  position: number,
  length: number,
  readAt: (position: number, length: number) => Promise<Buffer>,
): Promise<Buffer> {
  if (position < 0) {
    return Buffer.alloc(0);
  }
  if (position >= tailStart) {
    return tail.subarray(position - tailStart, position - tailStart + length);
  }
  return readAt(position, length);
}
