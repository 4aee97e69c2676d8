// Visio 2003 and earlier (`.vsd`, `.vss`, `.vst`) keep everything in one `VisioDocument` stream
// of their compound file: a tree of streams found through pointers, many compressed with Visio's
// own LZ77 variant. A VBA project or an embedded object is a whole compound file inside one of
// those streams, so its storages never show in the outer file (Apache POI's VBA reader finds no
// macro in POI's `SimpleMacro.vsd`), and when compressed not even its bytes do. We walk the
// pointer tree, inflate what is compressed, and hand back every compound file found, to be
// inspected like any other OLE2 document.
//
// Layout, as reverse-engineered by vsdump and implemented by Apache POI (HDGF) and libvisio: the
// stream starts with `Visio (TM) Drawing\r\n`, a u16 version at 0x1A and the trailer pointer at
// 0x24. A v6+ pointer is 18 bytes: type u32, address u32, offset u32, length u32, format u16;
// format bit 1 says compressed, and a stream holds pointers when its type is 20 (the trailer) or
// its format is 0x1D–0x1E or 0x50–0x5F: u32 at its start gives where the pointer count (u32)
// sits, and the pointers follow 8 bytes after it. A compressed stream inflates to a 4-byte block
// header and the stream's data. No maintained JavaScript library reads this format, hence this file.
import { AppError } from '@intake/shared/errors';
import { MAX_NESTED_ARCHIVE_BYTES } from './budget.js';

const SIGNATURE = Buffer.from('Visio (TM) Drawing\r\n', 'latin1');
const VERSION_OFFSET = 0x1a;
const TRAILER_POINTER_OFFSET = 0x24;
const TRAILER_TYPE = 20;
const POINTER_BYTES = 18;
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

function pointerAt(data: Buffer, at: number): Pointer {
  if (at < 0 || at + POINTER_BYTES > data.length) {
    throw unreadable();
  }
  return {
    type: data.readUInt32LE(at),
    offset: data.readUInt32LE(at + 8),
    length: data.readUInt32LE(at + 12),
    format: data.readUInt16LE(at + 16),
  };
}

function holdsPointers(pointer: Pointer): boolean {
  const { type, format } = pointer;
  return type === TRAILER_TYPE || (format >= 0x1d && format < 0x1f) || (format >= 0x50 && format < 0x60);
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

/** Every compound file that starts somewhere in `data`, from its magic to the end of `data`. */
function compoundFilesIn(data: Buffer): Buffer[] {
  const found: Buffer[] = [];
  for (let at = data.indexOf(OLE2_MAGIC); at >= 0; at = data.indexOf(OLE2_MAGIC, at + 1)) {
    found.push(data.subarray(at));
  }
  return found;
}

/** True when a compound file's `VisioDocument` stream is a Visio drawing (it names itself). */
export function isVisioDocument(stream: Buffer): boolean {
  return stream.subarray(0, SIGNATURE.length).equals(SIGNATURE);
}

/**
 * The compound files (VBA projects, embedded objects) stored in the streams of a `VisioDocument`
 * stream, compressed or not. Throws `archive_unreadable` when the pointer tree cannot be walked
 * (a Visio 5 or older drawing included: its pointers have another layout), `archive_bomb` when
 * the streams inflate beyond a nested archive's size.
 */
export function visioStorages(document: Buffer): Buffer[] {
  if (document.length < TRAILER_POINTER_OFFSET + POINTER_BYTES) {
    throw unreadable();
  }
  if (document.readUInt16LE(VERSION_OFFSET) < 6) {
    throw unreadable();
  }
  const storages: Buffer[] = [...compoundFilesIn(document)];
  const seen = new Set<string>();
  let streams = 0;
  let inflated = 0;
  const walk = (pointer: Pointer, depth: number): void => {
    const key = `${pointer.offset}:${pointer.length}:${pointer.format & 2}`;
    if (pointer.length === 0 || seen.has(key)) {
      return;
    }
    seen.add(key);
    streams += 1;
    if (depth > MAX_DEPTH || streams > MAX_STREAMS || pointer.offset + pointer.length > document.length) {
      throw unreadable();
    }
    let data = document.subarray(pointer.offset, pointer.offset + pointer.length);
    if ((pointer.format & 2) !== 0) {
      const decoded = inflateVisio(data, Math.max(MAX_INFLATED_BYTES - inflated, 0));
      inflated += decoded.length;
      data = decoded.subarray(BLOCK_HEADER_BYTES);
      storages.push(...compoundFilesIn(data));
    }
    if (!holdsPointers(pointer)) {
      return;
    }
    if (data.length < 4) {
      throw unreadable();
    }
    const countAt = data.readUInt32LE(0);
    if (countAt + 4 > data.length) {
      throw unreadable();
    }
    const count = data.readUInt32LE(countAt);
    if (count > MAX_STREAMS) {
      throw unreadable();
    }
    for (let index = 0; index < count; index += 1) {
      walk(pointerAt(data, countAt + 8 + index * POINTER_BYTES), depth + 1);
    }
  };
  walk(pointerAt(document, TRAILER_POINTER_OFFSET), 0);
  return storages;
}
