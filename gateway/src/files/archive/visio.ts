// Visio 2003 and earlier (`.vsd`, `.vss`, `.vst`) keep everything in one `VisioDocument` stream
// of their compound file: a tree of streams found through pointers, many compressed with Visio's
// own LZ77 variant. A VBA project or an embedded object is a whole compound file split over the
// OLE data streams of one OLE list, so its storages never show in the outer file, and when
// compressed not even its bytes do. We walk the tree, inflate what is compressed, join each list's
// pieces and hand back every compound file, to be inspected like any other. The layout, checked on
// drawings Visio wrote (test-files/fixtures/visio), is in docs/security.md. No maintained
// JavaScript library reads this format, hence this file.
import { AppError } from '@intake/shared/errors';
import { MAX_NESTED_ARCHIVE_BYTES } from './budget.js';

const SIGNATURE = Buffer.from('Visio (TM) Drawing\r\n', 'latin1');
const VERSION_OFFSET = 0x1a;
const TRAILER_POINTER_OFFSET = 0x24;
const TRAILER_TYPE = 0x14;
const COLORS_TYPE = 0x16;
const OLE_DATA_TYPE = 0x1f;
const BLOCK_HEADER_BYTES = 4;
/** Streams in one drawing; a pointer tree larger than this is refused, not walked. */
const MAX_STREAMS = 10_000;
/** Pointer tree depth; real drawings nest a few levels. */
const MAX_DEPTH = 32;
/**
 * What the compressed streams of one drawing may inflate to, together: a nested archive's size.
 * The inflating loop runs on the event loop at about 100 MB/s, so this also bounds its pause.
 */
const MAX_INFLATED_BYTES = MAX_NESTED_ARCHIVE_BYTES;
const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

function unreadable(): AppError {
  return new AppError('archive_unreadable', 'A Visio drawing cannot be inspected.');
}

interface Pointer {
  type: number;
  offset: number;
  length: number;
  format: number;
}

/**
 * The two pointer layouts. Visio 2000 and 2003 (versions 6 and 11): 18 bytes, type u32, a u32,
 * offset u32, length u32, format u16; a stream holding pointers starts with a u32 giving where their
 * count (u32) sits, and they follow 8 bytes after it. Visio 5 and older (versions 1 to 5): 16 bytes,
 * type and format in the low bytes of two u16, a u32, offset u32, length u32; the count (u16) sits
 * at an offset set by the stream's type, the pointers right after it.
 */
interface Layout {
  pointerBytes: number;
  pointerAt(data: Buffer, at: number): Pointer;
  /** Where the pointers of a stream holding them start, and how many there are. */
  list(data: Buffer, type: number): { first: number; count: number };
}

const VERSION_6_LAYOUT: Layout = {
  pointerBytes: 18,
  pointerAt: (data, at) => ({
    type: data.readUInt32LE(at),
    offset: data.readUInt32LE(at + 8),
    length: data.readUInt32LE(at + 12),
    format: data.readUInt16LE(at + 16),
  }),
  list: (data) => {
    const countAt = data.length >= 4 ? data.readUInt32LE(0) : data.length;
    if (countAt + 4 > data.length) {
      throw unreadable();
    }
    return { first: countAt + 8, count: data.readUInt32LE(countAt) };
  },
};

/** Visio 5: where the pointer count sits in a stream of each type that holds pointers. */
const VERSION_5_COUNT_OFFSETS = new Map([
  [TRAILER_TYPE, 0x82],
  [0x15, 0x42], // page
  [0x18, 0x2e], // font list
  [0x1a, 0x12], // styles
  [0x1d, 0x1e], // stencils
  [0x1e, 0x36], // stencil page
  [0x4e, 0x1e], // foreign shape
]);

const VERSION_5_LAYOUT: Layout = {
  pointerBytes: 16,
  pointerAt: (data, at) => ({
    type: data[at] ?? 0,
    format: data[at + 2] ?? 0,
    offset: data.readUInt32LE(at + 8),
    length: data.readUInt32LE(at + 12),
  }),
  list: (data, type) => {
    const countAt = VERSION_5_COUNT_OFFSETS.get(type) ?? (type > 0x45 ? 0x1e : 0x0a);
    if (countAt + 2 > data.length) {
      throw unreadable();
    }
    return { first: countAt + 2, count: data.readUInt16LE(countAt) };
  },
};

function layoutOf(version: number): Layout {
  if (version >= 1 && version <= 5) {
    return VERSION_5_LAYOUT;
  }
  if (version === 6 || version === 11) {
    return VERSION_6_LAYOUT;
  }
  throw unreadable();
}

/** A stream of pointers: the trailer, or a format whose high nibble is 5, except the colour table. */
function holdsPointers({ type, format }: Pointer): boolean {
  return type === TRAILER_TYPE || (type !== COLORS_TYPE && format >> 4 === 5);
}

/**
 * Visio's LZ77: a flag byte, then eight items, each a literal byte when its flag bit is set, else a
 * two-byte reference to 3–18 bytes of a 4,096-byte window whose positions are shifted by 18.
 * Throws `archive_bomb` past `maxBytes`.
 */
export function inflateVisio(compressed: Buffer, maxBytes: number = MAX_NESTED_ARCHIVE_BYTES): Buffer {
  const window = new Uint8Array(4096);
  // Output grows by doubling; the bytes are written inline (no call per byte): this loop runs for
  // every byte of a drawing.
  let output = new Uint8Array(Math.min(Math.max(compressed.length * 2, 4096), Math.max(maxBytes, 0) + 18));
  let size = 0;
  const overLimit = (): AppError => new AppError('archive_bomb', 'An embedded document expands beyond the limits.');
  let at = 0;
  while (at < compressed.length) {
    const flags = compressed[at] ?? 0;
    at += 1;
    for (let bit = 0; bit < 8 && at < compressed.length; bit += 1) {
      if (size + 18 > output.length) {
        if (size > maxBytes) {
          throw overLimit();
        }
        const grown = new Uint8Array(Math.min(output.length * 2, maxBytes + 18));
        grown.set(output.subarray(0, size));
        output = grown;
      }
      if ((flags & (1 << bit)) !== 0) {
        const byte = compressed[at] ?? 0;
        at += 1;
        window[size & 4095] = byte;
        output[size] = byte;
        size += 1;
        continue;
      }
      if (at + 1 >= compressed.length) {
        at = compressed.length;
        break;
      }
      const low = compressed[at] ?? 0;
      const high = compressed[at + 1] ?? 0;
      at += 2;
      const length = (high & 0x0f) + 3;
      const reference = low | ((high & 0xf0) << 4);
      const start = reference > 4078 ? reference - 4078 : reference + 18;
      for (let index = 0; index < length; index += 1) {
        const byte = window[(start + index) & 4095] ?? 0;
        window[size & 4095] = byte;
        output[size] = byte;
        size += 1;
      }
    }
  }
  if (size > maxBytes) {
    throw overLimit();
  }
  return Buffer.from(output.buffer, output.byteOffset, size);
}

/** True when a compound file's `VisioDocument` stream is a Visio drawing (it names itself). */
export function isVisioDocument(stream: Buffer): boolean {
  return stream.subarray(0, SIGNATURE.length).equals(SIGNATURE);
}

/**
 * The compound files (VBA projects, embedded objects) kept in the OLE data streams of a
 * `VisioDocument` stream, each list's pieces joined in their order. Throws `archive_unreadable`
 * when the pointer tree cannot be walked or the version is unknown, `archive_bomb` when the streams
 * inflate beyond a nested archive's size.
 */
export function visioStorages(document: Buffer): Buffer[] {
  if (document.length < TRAILER_POINTER_OFFSET + 18) {
    throw unreadable();
  }
  const layout = layoutOf(document[VERSION_OFFSET] ?? 0);
  const storages: Buffer[] = [];
  const walked = new Set<string>();
  let streams = 0;
  let inflated = 0;
  const pointerAt = (data: Buffer, at: number): Pointer => {
    if (at < 0 || at + layout.pointerBytes > data.length) {
      throw unreadable();
    }
    return layout.pointerAt(data, at);
  };
  /** A stream's data: cut at the end of the document, as Visio's readers do; inflated when compressed. */
  const read = (pointer: Pointer): Buffer => {
    streams += 1;
    if (streams > MAX_STREAMS) {
      throw unreadable();
    }
    const data = document.subarray(pointer.offset, pointer.offset + pointer.length);
    if ((pointer.format & 2) === 0) {
      return data;
    }
    const decoded = inflateVisio(data, Math.max(MAX_INFLATED_BYTES - inflated, 0));
    inflated += decoded.length;
    return decoded.subarray(BLOCK_HEADER_BYTES);
  };
  const walk = (pointer: Pointer, depth: number): void => {
    const key = `${pointer.offset}:${pointer.length}:${pointer.format & 2}`;
    if (walked.has(key)) {
      return;
    }
    walked.add(key);
    if (depth > MAX_DEPTH) {
      throw unreadable();
    }
    const data = read(pointer);
    const { first, count } = layout.list(data, pointer.type);
    if (count > MAX_STREAMS) {
      throw unreadable();
    }
    const pieces: Buffer[] = [];
    for (let index = 0; index < count; index += 1) {
      const child = pointerAt(data, first + index * layout.pointerBytes);
      // A pointer of type 0 is an empty slot; Visio's readers skip it whatever its other fields say.
      if (child.type === 0 || child.length === 0) {
        continue;
      }
      if (holdsPointers(child)) {
        walk(child, depth + 1);
      } else if (child.type === OLE_DATA_TYPE) {
        pieces.push(read(child));
      }
    }
    const joined = Buffer.concat(pieces);
    if (joined.subarray(0, OLE2_MAGIC.length).equals(OLE2_MAGIC)) {
      storages.push(joined);
    }
  };
  walk(pointerAt(document, TRAILER_POINTER_OFFSET), 0);
  return storages;
}
