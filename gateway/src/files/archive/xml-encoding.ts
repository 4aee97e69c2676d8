/**
 * The text encoding of an XML part from its first bytes: a UTF-16 byte-order mark or a `<` spread
 * over two bytes, else UTF-8 (what OOXML writers produce and the XML declaration would name).
 */
export function xmlEncodingOf(head: Uint8Array): string {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0x3c && head[1] === 0x00)) {
    return 'utf-16le';
  }
  if ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0x00 && head[1] === 0x3c)) {
    return 'utf-16be';
  }
  return 'utf-8';
}

/** Decodes a streamed XML part to text, holding bytes back until the first two name the encoding. */
export class XmlPartDecoder {
  private decoder: TextDecoder | null = null;
  private start: Buffer = Buffer.alloc(0);

  /** The text of `chunk` (with what was held back), or '' while the encoding is not known yet. */
  push(chunk: Uint8Array): string {
    if (this.decoder === null) {
      this.start = Buffer.concat([this.start, chunk]);
      if (this.start.length < 2) {
        return '';
      }
      this.decoder = new TextDecoder(xmlEncodingOf(this.start));
      chunk = this.start;
    }
    return this.decoder.decode(chunk, { stream: true });
  }

  /** The text still held: a part shorter than two bytes, or the end of a multi-byte sequence. */
  finish(): string {
    if (this.decoder === null) {
      return new TextDecoder(xmlEncodingOf(this.start)).decode(this.start);
    }
    return this.decoder.decode();
  }
}
