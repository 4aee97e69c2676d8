import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { signatureIn, ZipAfterEndWatch } from './appended-archive.js';
import { StreamedCheckPass } from './streamed-checks.js';
import type { TextVerdict } from './text.js';

// The upload's single pass must reach the verdicts the whole-file checks reach on the same bytes,
// however the network cuts them into chunks: a signature, a ZIP record, an image's chunk header or
// a UTF-8 sequence split between two chunks (or spread over several tiny ones) included.

const RAR = Buffer.from('Rar!\x1a\x07', 'latin1');
const SEVEN_ZIP = Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]);

/** The verdict of the read-back check (text.ts's checkUtf8Text) on a whole buffer. */
function wholeTextVerdict(bytes: Buffer): TextVerdict {
  if (bytes.includes(0)) {
    return { ok: false, reason: 'nul' };
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { ok: true };
  } catch {
    return { ok: false, reason: 'invalid_utf8' };
  }
}

/** Streams `bytes` through a check pass in chunks cut at `cuts`, as the network would deliver them. */
async function streamed(bytes: Buffer, cuts: number[]) {
  const bounds = [0, ...[...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b), bytes.length];
  const chunks = bounds
    .slice(1)
    .map((end, i) => bytes.subarray(bounds[i], end))
    .filter((chunk) => chunk.length > 0);
  const pass = new StreamedCheckPass();
  const written: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk);
      callback();
    },
  });
  await pipeline(Readable.from(chunks, { objectMode: false }), pass, sink);
  return { results: pass.results(), written: Buffer.concat(written) };
}

/** The ZIP-after-the-end verdict on the whole buffer at once. */
function wholeZipAfterEnd(bytes: Buffer): boolean {
  const watch = new ZipAfterEndWatch();
  watch.update(bytes);
  return watch.verdict();
}

const pngChunkHeader = (length: number, type: string): Buffer => {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(length);
  header.write(type, 4, 'latin1');
  return header;
};

/** How a file starts: each format's head, so the content-end walkers run, or anything. */
const head = fc.constantFrom(
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from([0xff, 0xd8]),
  Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00', 'latin1'),
  Buffer.from('RIFF\x40\x00\x00\x00WEBP', 'latin1'),
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(0),
);

/** Pieces of structure: chunk and segment headers, end markers, ZIP records whole and cut. */
const structure = fc.oneof(
  fc
    .tuple(fc.nat({ max: 24 }), fc.constantFrom('IHDR', 'IDAT', 'tEXt', 'IEND', 'x1!z'))
    .map(([length, type]) => pngChunkHeader(length, type)),
  fc.constantFrom(
    Buffer.from([0xff, 0xd9]),
    Buffer.from([0xff, 0xda, 0x00, 0x04, 0x01, 0x02]),
    Buffer.from([0xff, 0xe1, 0x00, 0x06]),
    Buffer.from([0xff, 0x00]),
    Buffer.from([0xff, 0xd3]),
    Buffer.from([0xff, 0xff]),
    Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x01, 0x44, 0x00]),
    Buffer.from([0x21, 0xfe, 0x02, 0x41, 0x42, 0x00]),
    Buffer.from([0x3b]),
    Buffer.from('%%EOF'),
    Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00\x00\x00', 'latin1'),
    Buffer.from('PK\x03\x04\x14\x00\x00\x00\x07\x00\x00\x00', 'latin1'),
    Buffer.from('PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00', 'latin1'),
    Buffer.from('PK\x05\x06\x00\x00\x00', 'latin1'),
  ),
);

const piece = fc.oneof(
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ maxLength: 20 }).map((text) => Buffer.from(text.replaceAll('\0', ''), 'utf8')),
  fc.constantFrom(RAR, SEVEN_ZIP, RAR.subarray(0, 3), SEVEN_ZIP.subarray(2)),
  fc.constantFrom(
    Buffer.from('é👋€', 'utf8'),
    Buffer.from([0xe2, 0x82]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0]),
  ),
);

describe('the upload single pass (StreamedCheckPass)', () => {
  it('reaches the whole-file verdicts on any bytes, however they are cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        head,
        fc.array(fc.oneof(piece, structure), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (start, pieces, cuts) => {
          const bytes = Buffer.concat([start, ...pieces]);
          const { results, written } = await streamed(bytes, cuts);
          expect(written.equals(bytes)).toBe(true);
          expect(results.size).toBe(bytes.length);
          expect(results.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
          // Whether one is found is the verdict; which one, when both are there, is the first seen.
          expect(results.streamed.archiveSignature !== null).toBe(signatureIn(bytes) !== null);
          expect(results.streamed.text).toEqual(wholeTextVerdict(bytes));
          expect(results.streamed.zipAfterEnd).toBe(wholeZipAfterEnd(bytes));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('finds a signature split across two chunks, and one spread over one-byte chunks', async () => {
    const bytes = Buffer.concat([Buffer.alloc(100, 0x20), SEVEN_ZIP, Buffer.alloc(100, 0x20)]);
    for (let cut = 100; cut <= 106; cut++) {
      expect((await streamed(bytes, [cut])).results.streamed.archiveSignature).toBe('sevenzip');
    }
    const everyByte = Array.from({ length: bytes.length }, (_, i) => i);
    expect((await streamed(bytes, everyByte)).results.streamed.archiveSignature).toBe('sevenzip');
  });

  it('accepts a character cut between two chunks and refuses one cut off at the end', async () => {
    const text = Buffer.from('Bonjour 👋 ça va', 'utf8');
    const inEmoji = text.indexOf(0xf0) + 2;
    expect((await streamed(text, [inEmoji])).results.streamed.text).toEqual({ ok: true });
    expect((await streamed(text.subarray(0, inEmoji), [4])).results.streamed.text).toEqual({
      ok: false,
      reason: 'invalid_utf8',
    });
  });
});
