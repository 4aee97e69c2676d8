import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { signatureIn } from './appended-archive.js';
import { StreamedCheckPass } from './streamed-checks.js';
import type { TextVerdict } from './text.js';

// The upload's single pass must reach the verdicts the whole-file checks reach on the same bytes,
// however the network cuts them into chunks: a signature or a UTF-8 sequence split between two
// chunks (or spread over several tiny ones) included.

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
        fc.array(piece, { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (pieces, cuts) => {
          const bytes = Buffer.concat(pieces);
          const { results, written } = await streamed(bytes, cuts);
          expect(written.equals(bytes)).toBe(true);
          expect(results.size).toBe(bytes.length);
          expect(results.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
          // Whether one is found is the verdict; which one, when both are there, is the first seen.
          expect(results.streamed.archiveSignature !== null).toBe(signatureIn(bytes) !== null);
          expect(results.streamed.text).toEqual(wholeTextVerdict(bytes));
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
