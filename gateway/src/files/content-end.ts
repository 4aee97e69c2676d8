// Where an image or a PDF ends by its own structure, found as its bytes stream in: what follows is
// no part of it (an appended archive, or a video a phone keeps after a JPEG). PNG: chunks up to
// IEND; JPEG: segments and scan data up to EOI; GIF: blocks up to the trailer; WebP: the RIFF
// length; PDF: the last `%%EOF`, since incremental updates follow the first. A structure that
// breaks or runs past the end of the file ends where its broken or unfinished part starts.
// Each walker reads a few header bytes per part and skips the rest; JPEG scan data is searched
// for its end marker (Buffer.indexOf).

/** Follows a format's structure over the chunks of a file, in order. */
export interface ContentEndWalker {
  /** `chunk` holds the bytes from absolute position `start`. */
  update(chunk: Buffer, start: number): void;
  /** Once every byte is in: where the content ends, `size` being the file's size. */
  contentEnd(size: number): number;
}

/** Gathers `length` bytes at an absolute position from chunks as they arrive. */
class Gather {
  private bytes = Buffer.alloc(16);
  private have = 0;
  private length = 0;
  at = 0;

  want(at: number, length: number): void {
    this.at = at;
    this.length = length;
    this.have = 0;
  }

  /** Takes what `chunk` (from `start`) holds of the wanted bytes; true once all are in. */
  take(chunk: Buffer, start: number): boolean {
    const from = this.at + this.have - start;
    if (from < 0 || from >= chunk.length) {
      return this.have === this.length;
    }
    const taken = chunk.copy(this.bytes, this.have, from, from + this.length - this.have);
    this.have += taken;
    return this.have === this.length;
  }

  get value(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/** A walker that reads a few bytes at a time and decides from them where to read next. */
abstract class StepWalker implements ContentEndWalker {
  protected readonly gather = new Gather();
  /** Where the part being read starts: the content's end if the file stops inside it. */
  protected partStart = 0;
  protected end: number | null = null;

  constructor(first: number, length: number) {
    this.gather.want(first, length);
  }

  update(chunk: Buffer, start: number): void {
    while (this.end === null && this.gather.take(chunk, start)) {
      this.step(this.gather.value, this.gather.at);
    }
  }

  contentEnd(_size: number): number {
    return this.end ?? this.partStart;
  }

  /** Called with the wanted bytes: calls `gather.want` for the next ones, or sets `end`. */
  protected abstract step(bytes: Buffer, at: number): void;
}

class PngWalker extends StepWalker {
  private endChunk = false;

  constructor() {
    super(8, 8);
    this.partStart = 8;
  }

  protected step(bytes: Buffer, at: number): void {
    if (this.endChunk) {
      this.end = at + 4; // IEND's CRC is in
      return;
    }
    const length = bytes.readUInt32BE(0);
    const type = bytes.toString('latin1', 4, 8);
    this.partStart = at;
    if (length > 0x7fffffff || !/^[A-Za-z]{4}$/u.test(type)) {
      this.end = at;
      return;
    }
    this.endChunk = type === 'IEND';
    this.gather.want(this.endChunk ? at + 8 + length : at + 12 + length, this.endChunk ? 4 : 8);
  }
}

const GIF_EXTENSION = 0x21;
const GIF_IMAGE = 0x2c;
const GIF_TRAILER = 0x3b;

class GifWalker extends StepWalker {
  private state: 'screen' | 'block' | 'label' | 'image' | 'codeSize' | 'subBlock' = 'screen';

  constructor() {
    super(0, 13);
  }

  protected step(bytes: Buffer, at: number): void {
    const [first = 0] = bytes;
    switch (this.state) {
      case 'screen':
        return this.read('block', 13 + colourTableBytes(bytes[10] ?? 0), 1);
      case 'block':
        this.partStart = at;
        if (first === GIF_TRAILER) {
          this.end = at + 1;
        } else if (first === GIF_EXTENSION) {
          this.read('label', at + 1, 1);
        } else if (first === GIF_IMAGE) {
          this.read('image', at, 10);
        } else {
          this.end = at;
        }
        return;
      case 'label':
        return this.read('subBlock', at + 1, 1);
      case 'image':
        return this.read('codeSize', at + 10 + colourTableBytes(bytes[9] ?? 0), 1);
      case 'codeSize':
        return this.read('subBlock', at + 1, 1);
      case 'subBlock':
        return first === 0 ? this.read('block', at + 1, 1) : this.read('subBlock', at + 1 + first, 1);
    }
  }

  private read(state: GifWalker['state'], at: number, length: number): void {
    this.state = state;
    this.gather.want(at, length);
  }
}

function colourTableBytes(flags: number): number {
  return (flags & 0x80) === 0 ? 0 : 3 << ((flags & 0x07) + 1);
}

const JPEG_SOS = 0xda;
const EOI = Buffer.from([0xff, 0xd9]);

/**
 * Markers are 0xFF, any fill bytes 0xFF, then a code; all but TEM and RST0–7 are followed by a
 * length. From the first scan on, the content ends at the first EOI (0xFF 0xD9): in scan data a
 * 0xFF is always followed by 0x00, a restart code or a marker, so that pair is EOI, and a stray pair
 * in a later table only ends it sooner (more is looked at). Found with Buffer.indexOf: walking scan
 * data byte by byte cost ten times the single pass's signature search on a 10 MB photo.
 */
class JpegWalker extends StepWalker {
  private lengthOf = 0;
  private scanning = false;
  private lastByte = 0;

  constructor() {
    super(2, 2); // past SOI
    this.partStart = 2;
  }

  override update(chunk: Buffer, start: number): void {
    if (!this.scanning) {
      super.update(chunk, start);
      if (!this.scanning || this.end !== null) {
        return;
      }
    }
    const from = Math.max(this.partStart - start, 0);
    if (from >= chunk.length) {
      return;
    }
    if (this.lastByte === 0xff && from === 0 && chunk[0] === 0xd9) {
      this.end = start + 1;
      return;
    }
    const found = chunk.indexOf(EOI, from);
    if (found >= 0) {
      this.end = start + found + 2;
      return;
    }
    this.lastByte = chunk[chunk.length - 1] ?? 0;
  }

  protected step(bytes: Buffer, at: number): void {
    if (this.lengthOf !== 0) {
      const length = bytes.readUInt16BE(0);
      if (length < 2) {
        this.end = this.partStart;
        return;
      }
      this.partStart = at + length;
      if (this.lengthOf === JPEG_SOS) {
        this.scanning = true;
        this.gather.want(Number.MAX_SAFE_INTEGER, 1); // nothing more to gather: update() searches
        return;
      }
      this.lengthOf = 0;
      this.gather.want(at + length, 2);
      return;
    }
    const [first, code = 0] = bytes;
    if (first !== 0xff || code === 0x00 || code === 0xd8) {
      this.end = at; // no marker where one is due
    } else if (code === 0xff) {
      this.gather.want(at + 1, 2); // a fill byte
    } else if (code === 0xd9) {
      this.end = at + 2;
    } else if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      this.partStart = at + 2;
      this.gather.want(at + 2, 2);
    } else {
      this.partStart = at;
      this.lengthOf = code;
      this.gather.want(at + 2, 2);
    }
  }
}

class WebpWalker extends StepWalker {
  constructor() {
    super(0, 12);
  }

  protected step(header: Buffer): void {
    const size = header.readUInt32LE(4);
    this.end = 8 + size + (size & 1);
  }

  override contentEnd(size: number): number {
    // A RIFF cut short ends nowhere: all of it is looked at.
    return this.end !== null && this.end <= size ? this.end : 0;
  }
}

const PDF_EOF = Buffer.from('%%EOF', 'latin1');

class PdfWalker implements ContentEndWalker {
  private carried = Buffer.alloc(0);
  private lastEof = 0;

  update(chunk: Buffer, start: number): void {
    const seam = Buffer.concat([this.carried, chunk.subarray(0, PDF_EOF.length - 1)]);
    const inSeam = seam.lastIndexOf(PDF_EOF);
    if (inSeam >= 0) {
      this.lastEof = Math.max(this.lastEof, start - this.carried.length + inSeam + PDF_EOF.length);
    }
    const inChunk = chunk.lastIndexOf(PDF_EOF);
    if (inChunk >= 0) {
      this.lastEof = Math.max(this.lastEof, start + inChunk + PDF_EOF.length);
    }
    this.carried = Buffer.concat([this.carried, chunk.subarray(-(PDF_EOF.length - 1))]).subarray(-(PDF_EOF.length - 1));
  }

  contentEnd(): number {
    return this.lastEof;
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The walker for a file starting with `head` (its first 12 bytes or all of a shorter file), or null. */
export function contentEndWalkerFor(head: Buffer): ContentEndWalker | null {
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) {
    return new PngWalker();
  }
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return new JpegWalker();
  }
  if (head.toString('latin1', 0, 4) === 'GIF8') {
    return new GifWalker();
  }
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') {
    return new WebpWalker();
  }
  if (head.toString('latin1', 0, 4) === '%PDF') {
    return new PdfWalker();
  }
  return null;
}
