// `text/plain` has no magic bytes: its content proves its type only by being UTF-8 without NUL
// (docs/intake-api.md). The file is streamed in chunks, never loaded whole.
import { createReadStream } from 'node:fs';

export type TextVerdict = { ok: true } | { ok: false; reason: 'nul' | 'invalid_utf8' };

const CHUNK_BYTES = 64 * 1024;

/**
 * Checks that a file is well-formed UTF-8 without U+0000. `fatal` rejects overlong forms,
 * surrogates (ED A0 80) and code points above U+10FFFF; the final flush rejects a sequence cut at
 * the end. A BOM is fine. An empty file is valid text.
 */
export async function checkUtf8Text(path: string): Promise<TextVerdict> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // In UTF-8 the byte 0x00 only ever encodes U+0000.
      if (chunk.includes(0)) {
        return { ok: false, reason: 'nul' };
      }
      decoder.decode(chunk, { stream: true });
    }
    decoder.decode();
    return { ok: true };
  } catch (error) {
    if (isInvalidEncoding(error)) {
      return { ok: false, reason: 'invalid_utf8' };
    }
    throw error;
  } finally {
    stream.destroy();
  }
}

/**
 * The same verdict on bytes that arrive chunk by chunk (an upload as it streams to its temporary
 * file), so a text file need not be read back. A NUL anywhere is the reason given, whatever the
 * chunks: binary content has one within its first bytes, and once one is seen the watch stops.
 */
export class TextWatch {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private nul = false;
  private invalid = false;

  update(chunk: Buffer): void {
    if (this.nul) {
      return;
    }
    // In UTF-8 the byte 0x00 only ever encodes U+0000.
    this.nul = chunk.includes(0);
    if (!this.nul && !this.invalid) {
      this.invalid = decodes(() => this.decoder.decode(chunk, { stream: true })) !== null;
    }
  }

  /** The verdict on all the bytes seen; call once, after the last chunk. */
  verdict(): TextVerdict {
    if (this.nul) {
      return { ok: false, reason: 'nul' };
    }
    return this.invalid
      ? { ok: false, reason: 'invalid_utf8' }
      : (decodes(() => this.decoder.decode()) ?? { ok: true });
  }
}

/** Null when `decode` decodes; the invalid-encoding verdict when it throws for that. */
function decodes(decode: () => unknown): TextVerdict | null {
  try {
    decode();
    return null;
  } catch (error) {
    if (isInvalidEncoding(error)) {
      return { ok: false, reason: 'invalid_utf8' };
    }
    throw error;
  }
}

// By code, not `instanceof TypeError`: the decoder's TypeError may come from another realm (a VM
// context, as under jest).
function isInvalidEncoding(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA'
  );
}
