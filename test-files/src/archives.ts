// Builders of malicious and unusual archives, made in code at test time (no binary fixture is
// committed). Normal zips come from yazl (`zipOf` in samples.ts); everything a well-behaved writer
// refuses to produce (lying sizes, overlapping entries, two names for one entry, symlinks, encrypted
// flags) comes from `rawZip`, a small ZIP writer that writes exactly what it is told.
import { constants, crc32, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import CFB from 'cfb';
import { docx, OOXML_MAIN_CONTENT_TYPES, pptx, xlsx, zipOf } from './samples.js';
import type { ZipEntries } from './samples.js';

// ------------------------------------------------------------------------------ raw ZIP writer

const STORED = 0;
const DEFLATED = 8;
const MAX_U32 = 0xffffffff;

export interface RawEntry {
  /** Name in the central directory (raw bytes when a Buffer). */
  name: string | Buffer;
  /** Name in the local header; defaults to `name`. */
  localName?: string | Buffer;
  /** The entry's real content; compressed with raw deflate unless `method` is 0. */
  content?: string | Buffer;
  /** Bytes written as the entry's data, as they are (overrides `content` compression). */
  data?: Buffer;
  /** Compression method; 8 (deflate) by default. */
  method?: number;
  /** Declared CRC-32; by default that of `content`. */
  crc?: number;
  /** Declared uncompressed size; by default the length of `content`. */
  uncompressedSize?: number;
  /** Declared compressed size; by default the length of the data written. */
  compressedSize?: number;
  /** General purpose bit flag, in both headers unless `localFlags` is given. */
  flags?: number;
  localFlags?: number;
  /** External file attributes (Unix mode in the upper 16 bits). */
  externalAttributes?: number;
  /** Version made by; 0x031e (Unix, 3.0) by default. */
  versionMadeBy?: number;
  centralExtra?: Buffer;
  localExtra?: Buffer;
  /** Writes no local header or data: the central entry points at entry `sharesLocalOf`'s. */
  sharesLocalOf?: number;
  /** Points the central entry at this offset instead of its own local header. */
  offset?: number;
  /** Declares sizes through a ZIP64 extra field (needed above 4 GiB). */
  zip64?: boolean;
  /**
   * Streams the entry the way LibreOffice, Java and macOS do: general purpose bit 3, zeros in the
   * local header, and a signed data descriptor after the data.
   */
  dataDescriptor?: boolean;
}

export interface RawZipOptions {
  /** Bytes written between the last entry and the central directory. */
  beforeDirectory?: Buffer;
  /** Bytes written before the first local header. */
  prefix?: Buffer;
}

function bytesOf(value: string | Buffer): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

function zip64Extra(uncompressedSize: number, compressedSize: number): Buffer {
  const extra = Buffer.alloc(20);
  extra.writeUInt16LE(0x0001, 0);
  extra.writeUInt16LE(16, 2);
  extra.writeBigUInt64LE(BigInt(uncompressedSize), 4);
  extra.writeBigUInt64LE(BigInt(compressedSize), 12);
  return extra;
}

interface Resolved {
  entry: RawEntry;
  name: Buffer;
  localName: Buffer;
  data: Buffer;
  method: number;
  crc: number;
  uncompressedSize: number;
  compressedSize: number;
  flags: number;
}

function resolve(entry: RawEntry): Resolved {
  const content = entry.content === undefined ? Buffer.alloc(0) : bytesOf(entry.content);
  const method = entry.method ?? DEFLATED;
  const data = entry.data ?? (method === STORED ? content : deflateRawSync(content));
  const name = bytesOf(entry.name);
  return {
    entry,
    name,
    localName: entry.localName === undefined ? name : bytesOf(entry.localName),
    data,
    method,
    crc: entry.crc ?? crc32(content),
    uncompressedSize: entry.uncompressedSize ?? content.length,
    compressedSize: entry.compressedSize ?? data.length,
    flags: (entry.flags ?? 0) | (entry.dataDescriptor === true ? 0x8 : 0),
  };
}

function dataDescriptor(item: Resolved): Buffer {
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(item.crc, 4);
  descriptor.writeUInt32LE(item.compressedSize, 8);
  descriptor.writeUInt32LE(item.uncompressedSize, 12);
  return descriptor;
}

function localHeader(item: Resolved): Buffer {
  const extra = item.entry.localExtra ?? Buffer.alloc(0);
  const header = Buffer.alloc(30);
  const deferred = item.entry.dataDescriptor === true;
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(item.entry.zip64 === true ? 45 : 20, 4);
  header.writeUInt16LE(item.entry.localFlags ?? item.flags, 6);
  header.writeUInt16LE(item.method, 8);
  header.writeUInt32LE(deferred ? 0 : item.crc, 14);
  header.writeUInt32LE(deferred ? 0 : item.entry.zip64 === true ? MAX_U32 : item.compressedSize, 18);
  header.writeUInt32LE(deferred ? 0 : item.entry.zip64 === true ? MAX_U32 : item.uncompressedSize, 22);
  header.writeUInt16LE(item.localName.length, 26);
  header.writeUInt16LE(extra.length, 28);
  return Buffer.concat([header, item.localName, extra]);
}

function centralHeader(item: Resolved, offset: number): Buffer {
  const zip64 = item.entry.zip64 === true;
  const extra = Buffer.concat([
    zip64 ? zip64Extra(item.uncompressedSize, item.compressedSize) : Buffer.alloc(0),
    item.entry.centralExtra ?? Buffer.alloc(0),
  ]);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(item.entry.versionMadeBy ?? 0x031e, 4);
  header.writeUInt16LE(zip64 ? 45 : 20, 6);
  header.writeUInt16LE(item.flags, 8);
  header.writeUInt16LE(item.method, 10);
  header.writeUInt32LE(item.crc, 16);
  header.writeUInt32LE(zip64 ? MAX_U32 : item.compressedSize, 20);
  header.writeUInt32LE(zip64 ? MAX_U32 : item.uncompressedSize, 24);
  header.writeUInt16LE(item.name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt32LE(item.entry.externalAttributes ?? 0o100644 * 0x10000, 38);
  header.writeUInt32LE(offset, 42);
  return Buffer.concat([header, item.name, extra]);
}

function endOfCentralDirectory(count: number, size: number, offset: number): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(count, 8);
  record.writeUInt16LE(count, 10);
  record.writeUInt32LE(size, 12);
  record.writeUInt32LE(offset, 16);
  return record;
}

/** A ZIP written exactly as described, lies included. At most 65,535 entries, offsets under 4 GiB. */
export function rawZip(entries: readonly RawEntry[], options: RawZipOptions = {}): Buffer {
  const resolved = entries.map(resolve);
  const parts: Buffer[] = [];
  let position = 0;
  const write = (bytes: Buffer): void => {
    parts.push(bytes);
    position += bytes.length;
  };
  write(options.prefix ?? Buffer.alloc(0));
  const offsets: number[] = [];
  for (const item of resolved) {
    if (item.entry.sharesLocalOf !== undefined) {
      offsets.push(offsets[item.entry.sharesLocalOf] ?? 0);
      continue;
    }
    offsets.push(position);
    write(localHeader(item));
    write(item.data);
    if (item.entry.dataDescriptor === true) {
      write(dataDescriptor(item));
    }
  }
  write(options.beforeDirectory ?? Buffer.alloc(0));
  const directoryOffset = position;
  resolved.forEach((item, index) => {
    write(centralHeader(item, item.entry.offset ?? offsets[index] ?? 0));
  });
  write(endOfCentralDirectory(resolved.length, position - directoryOffset, directoryOffset));
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------- building blocks

const MiB = 1024 * 1024;

/**
 * A raw deflate stream that inflates to `bytes` zeros (a multiple of 1 MiB), built without
 * compressing them: 1 MiB of zeros compressed once, ending in a full flush so the piece stands
 * alone, repeated, then a final empty block. 10 GiB costs about 10 MB.
 */
export function zerosDeflateStream(bytes: number): Buffer {
  const piece = deflateRawSync(Buffer.alloc(MiB), { finishFlush: constants.Z_FULL_FLUSH, level: 9 });
  const count = Math.ceil(bytes / MiB);
  return Buffer.concat([...Array.from({ length: count }, () => piece), deflateRawSync(Buffer.alloc(0))]);
}

/** CRC-32 of `bytes` zeros, computed a mebibyte at a time. */
export function zerosCrc(bytes: number): number {
  const block = Buffer.alloc(MiB);
  let crc = 0;
  for (let done = 0; done < bytes; done += MiB) {
    crc = crc32(block.subarray(0, Math.min(MiB, bytes - done)), crc);
  }
  return crc;
}

/** The first bytes of programs of every kind the inspector must recognise. */
export const EXECUTABLE_HEADS = {
  pe: Buffer.concat([
    Buffer.from('MZ', 'latin1'),
    Buffer.alloc(62),
    Buffer.from('This program cannot be run in DOS mode.'),
  ]),
  elf: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
  machO32: Buffer.from([0xfe, 0xed, 0xfa, 0xce, 0, 0, 0, 7]),
  machO64: Buffer.from([0xfe, 0xed, 0xfa, 0xcf, 0, 0, 0, 7]),
  machO32Reversed: Buffer.from([0xce, 0xfa, 0xed, 0xfe, 7, 0, 0, 0]),
  machO64Reversed: Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]),
  fatMachO: Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2]),
  javaClass: Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x41]),
  shebang: Buffer.from('#!/bin/sh\nrm -rf ~\n'),
} as const;

/** Info-ZIP Unicode Path extra field (0x7075) claiming `unicodeName` for the raw name `rawName`. */
export function unicodePathExtra(rawName: string | Buffer, unicodeName: string): Buffer {
  const name = Buffer.from(unicodeName, 'utf8');
  const field = Buffer.alloc(9);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + name.length, 2);
  field[4] = 1;
  field.writeUInt32LE(crc32(bytesOf(rawName)), 5);
  return Buffer.concat([field, name]);
}

// -------------------------------------------------------------------------------------- bombs

/** `count` empty stored entries (10,001 is one over the default limit). */
export function manyEntriesZip(count: number): Buffer {
  return rawZip(Array.from({ length: count }, (_, index) => ({ name: `f${index}.txt`, method: STORED })));
}

/** One entry of `bytes` zeros, declared honestly (ZIP64 past 4 GiB): 10 GiB for about 10 MB. */
export function honestZerosBomb(bytes = 10 * 1024 * MiB): Buffer {
  return rawZip([
    {
      name: 'zeros.txt',
      data: zerosDeflateStream(bytes),
      uncompressedSize: bytes,
      crc: bytes > 64 * MiB ? 0 : zerosCrc(bytes),
      zip64: bytes >= MAX_U32,
    },
  ]);
}

/** An entry that declares 1 KiB but inflates to `bytes` zeros (10 GiB by default). */
export function lyingSizeBomb(bytes = 10 * 1024 * MiB): Buffer {
  return rawZip([{ name: 'small.txt', data: zerosDeflateStream(bytes), uncompressedSize: 1024, crc: 0 }]);
}

/**
 * 42.zip's shape: `levels` levels of zips, each holding `width` copies of the level below, the
 * innermost holding 1 GiB of zeros (declared honestly). 16 wide and 5 deep it expands to 64 TiB.
 */
export async function nestedZipBomb(levels = 5, width = 16): Promise<Buffer> {
  const gib = 1024 * MiB;
  let current = rawZip([{ name: '0.txt', data: zerosDeflateStream(gib), uncompressedSize: gib, crc: zerosCrc(gib) }]);
  for (let level = 1; level < levels; level += 1) {
    const entries: ZipEntries = {};
    for (let index = 0; index < width; index += 1) {
      entries[`lib ${index}.zip`] = current;
    }
    current = await zipOf(entries);
  }
  return current;
}

/** Two central entries pointing at the same local header (the simplest overlap). */
export function sharedLocalHeaderZip(): Buffer {
  return rawZip([
    { name: 'a.txt', content: 'kernel '.repeat(100) },
    { name: 'a.txt', content: 'kernel '.repeat(100), sharesLocalOf: 0 },
  ]);
}

/**
 * David Fifield's overlap, in miniature: a stored entry whose data "quotes" a second entry's local
 * header and data, so the second entry lies entirely inside the first one's bytes.
 */
export function quotedOverlapZip(kernel: Buffer = Buffer.from('kernel '.repeat(200))): Buffer {
  const innerName = Buffer.from('b.txt');
  const innerData = deflateRawSync(kernel);
  const inner = resolve({ name: innerName, data: innerData, crc: crc32(kernel), uncompressedSize: kernel.length });
  const quoted = Buffer.concat([localHeader(inner), innerData]);
  const outerName = 'a.txt';
  return rawZip([
    { name: outerName, method: STORED, content: quoted },
    {
      name: innerName,
      data: innerData,
      crc: crc32(kernel),
      uncompressedSize: kernel.length,
      sharesLocalOf: 0,
      offset: 30 + outerName.length,
    },
  ]);
}

// ------------------------------------------------------------------------------- OLE2 samples

function ole2(streams: Record<string, Buffer>, rootClsid?: string): Buffer {
  const container = CFB.utils.cfb_new();
  for (const [path, content] of Object.entries(streams)) {
    CFB.utils.cfb_add(container, path, content);
  }
  if (rootClsid !== undefined && container.FileIndex[0] !== undefined) {
    container.FileIndex[0].clsid = rootClsid;
  }
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

/** An OLE2 compound file holding a VBA project (what `vbaProject.bin` is), whatever it is named. */
export function vbaProjectOle2(): Buffer {
  return ole2({
    '/PROJECT': Buffer.from('ID="{00000000-0000-0000-0000-000000000000}"\r\nModule=Module1\r\n'),
    '/PROJECTwm': Buffer.from('Module1\0M\0o\0d\0u\0l\0e\x001\0\0\0'),
    '/VBA/_VBA_PROJECT': Buffer.from([0xcc, 0x61, 0xff, 0xff, 0x00, 0x00, 0x00]),
    '/VBA/dir': Buffer.from([0x01, 0x00, 0x00]),
    '/VBA/Module1': Buffer.from('Attribute VB_Name = "Module1"\r\nSub AutoOpen()\r\nEnd Sub\r\n'),
  });
}

/** An OLE2 compound file without macros (a stand-in for a plain `.doc`). */
export function plainOle2(): Buffer {
  return ole2({ '/WordDocument': Buffer.from([0xec, 0xa5, 0xc1, 0x00]), '/1Table': Buffer.alloc(64) });
}

/** An OLE2 file whose root CLSID says Windows Installer package. */
export function msiOle2(): Buffer {
  return ole2({ '/\u0005SummaryInformation': Buffer.alloc(64) }, '84100c0000000000c000000000000046');
}

/** An `\x01Ole10Native` stream: the "Package" object Office uses to embed any file. */
export function ole10Native(label: string, content: Buffer): Buffer {
  const latin = (text: string): Buffer => Buffer.from(`${text}\0`, 'latin1');
  const u32 = (value: number): Buffer => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32LE(value);
    return bytes;
  };
  const tempPath = latin(`C:\\Users\\x\\AppData\\Local\\Temp\\${label}`);
  const body = Buffer.concat([
    Buffer.from([0x02, 0x00]),
    latin(label),
    latin(`C:\\Users\\x\\Desktop\\${label}`),
    u32(0x00030000),
    u32(tempPath.length),
    tempPath,
    u32(content.length),
    content,
  ]);
  return Buffer.concat([u32(body.length), body]);
}

/** An OLE2 object whose `Package` stream holds a whole file (how an OOXML document is embedded). */
export function packageStreamOle2(content: Buffer): Buffer {
  return ole2({ '/Package': content });
}

/** An OLE2 `oleObject*.bin` as OOXML stores embeddings, packaging `content` under `label`. */
export function packagedObjectOle2(label: string, content: Buffer): Buffer {
  return ole2({ '/\u0001Ole10Native': ole10Native(label, content) });
}

/**
 * MS-OVBA compression (2.4.1) using literal tokens only: a valid compressed container, as Office
 * reads it, for any text. Each chunk holds 4,096 bytes; each token group a zero flag byte and up to
 * eight literals.
 */
export function ovbaCompressLiterals(text: string): Buffer {
  const source = Buffer.from(text, 'latin1');
  const chunks: Buffer[] = [Buffer.from([0x01])];
  for (let start = 0; start < source.length; start += 4096) {
    const piece = source.subarray(start, start + 4096);
    const tokens: Buffer[] = [];
    for (let offset = 0; offset < piece.length; offset += 8) {
      tokens.push(Buffer.from([0x00]), piece.subarray(offset, offset + 8));
    }
    const data = Buffer.concat(tokens);
    const header = Buffer.alloc(2);
    header.writeUInt16LE(0x8000 | 0x3000 | (data.length + 2 - 3));
    chunks.push(header, data);
  }
  return Buffer.concat(chunks);
}

const VBA_MODULE_SOURCE = 'Attribute VB_Name = "Module1"\r\nSub AutoOpen()\r\n  Shell "calc"\r\nEnd Sub\r\n';

function biffRecord(type: number, data: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16LE(type, 0);
  header.writeUInt16LE(data.length, 2);
  return Buffer.concat([header, data]);
}

/**
 * An Excel 97–2003 workbook (BIFF8 `Workbook` stream): BOF, one BOUNDSHEET per sheet, EOF, then each
 * sheet's own BOF/EOF substream. `dt` 1 is an Excel 4.0 macro sheet, 0 a worksheet.
 */
export function xlsWorkbook(sheets: readonly { name: string; type: number; hidden?: number }[]): Buffer {
  const bof = (substream: number): Buffer => {
    const data = Buffer.alloc(16);
    data.writeUInt16LE(0x0600, 0);
    data.writeUInt16LE(substream, 2);
    data.writeUInt16LE(0x0dbb, 4);
    data.writeUInt16LE(0x07cc, 6);
    return biffRecord(0x0809, data);
  };
  const eof = biffRecord(0x000a, Buffer.alloc(0));
  const boundSheets = sheets.map((sheet) => {
    const name = Buffer.from(sheet.name, 'latin1');
    const data = Buffer.alloc(8 + name.length);
    data[4] = sheet.hidden ?? 0;
    data[5] = sheet.type;
    data[6] = name.length;
    name.copy(data, 8);
    return biffRecord(0x0085, data);
  });
  const substreams = sheets.map((sheet) => Buffer.concat([bof(sheet.type === 1 ? 0x0040 : 0x0010), eof]));
  return ole2({ '/Workbook': Buffer.concat([bof(0x0005), ...boundSheets, eof, ...substreams]) });
}

function pptRecord(version: number, instance: number, type: number, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt16LE((instance << 4) | version, 0);
  header.writeUInt16LE(type, 2);
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data]);
}

/**
 * A PowerPoint 97–2003 presentation whose `PowerPoint Document` stream holds, after the document
 * container, an ExOleObjStg record with `storage` zlib-compressed (as PowerPoint keeps its VBA
 * project and embedded objects). `withoutAdler32` drops the zlib stream's closing checksum, as in
 * files PowerPoint writes and opens (Apache Tika's `testPPT_macros.ppt`).
 */
export function pptWithStorage(
  storage: Buffer,
  options: { insideAnotherAtom?: boolean; withoutAdler32?: boolean } = {},
): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(storage.length);
  const document = pptRecord(0xf, 0, 0x03e8, pptRecord(0, 0, 0x03e9, Buffer.alloc(40)));
  const compressed = deflateSync(storage);
  const zlibData = options.withoutAdler32 === true ? compressed.subarray(0, compressed.length - 4) : compressed;
  let exOleObjStg = pptRecord(0, 1, 0x1011, Buffer.concat([size, zlibData]));
  if (options.insideAnotherAtom === true) {
    // A walk from the start skips it as another atom's data; the persist directory can still point at it.
    exOleObjStg = pptRecord(0, 0, 0x0fba, Buffer.concat([Buffer.alloc(10), exOleObjStg]));
  }
  return ole2({
    '/PowerPoint Document': Buffer.concat([document, exOleObjStg]),
    '/Current User': Buffer.alloc(20),
  });
}

/** A Visio 2003 drawing whose own `VisioDocument` stream carries a compressed VBA module. */
export function visioWithVbaModule(): Buffer {
  const drawing = Buffer.concat([
    Buffer.from('Visio (TM) Drawing\r\n\0\0', 'latin1'),
    Buffer.alloc(64),
    ovbaCompressLiterals(VBA_MODULE_SOURCE),
    Buffer.alloc(64),
  ]);
  return ole2({ '/VisioDocument': drawing, '/\u0005SummaryInformation': Buffer.alloc(64) });
}

/**
 * Visio's LZ77 with literals only (a flag byte with its eight bits set, then eight bytes): a valid
 * compressed stream, which Visio and every reader inflate, for any bytes.
 */
export function visioCompressLiterals(data: Buffer): Buffer {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += 8) {
    pieces.push(Buffer.from([0xff]), data.subarray(offset, offset + 8));
  }
  return Buffer.concat(pieces);
}

function visioPointer(type: number, offset: number, length: number, format: number): Buffer {
  const pointer = Buffer.alloc(18);
  pointer.writeUInt32LE(type, 0);
  pointer.writeUInt32LE(offset, 8);
  pointer.writeUInt32LE(length, 12);
  pointer.writeUInt16LE(format, 16);
  return pointer;
}

/**
 * A Visio 2003 drawing (version 11) whose `VisioDocument` stream keeps `embedded`, a whole compound
 * file, in a stream of its own (compressed with Visio's LZ77 unless `compressed` is false) that the
 * trailer points at: how Visio stores a drawing's VBA project (Apache POI's `SimpleMacro.vsd`) and
 * its embedded objects. Visio's own streams (pages, fonts, styles) are left out.
 */
export function visioDrawing(embedded: Buffer, options: { compressed?: boolean } = {}): Buffer {
  const compressed = options.compressed !== false;
  const headerLength = 0x40;
  const trailerLength = 12 + 18;
  const blockHeader = Buffer.from([0x00, 0x00, 0x00, 0x00]);
  const stream = compressed ? visioCompressLiterals(Buffer.concat([blockHeader, embedded])) : embedded;
  const streamOffset = headerLength + trailerLength;
  const trailer = Buffer.alloc(12);
  trailer.writeUInt32LE(4, 0); // the pointer count sits at 4; the pointers follow 8 bytes after
  trailer.writeUInt32LE(1, 4);
  const trailerStream = Buffer.concat([
    trailer,
    visioPointer(0x1f, streamOffset, stream.length, compressed ? 0x02 : 0x00),
  ]);
  const header = Buffer.alloc(headerLength);
  Buffer.from('Visio (TM) Drawing\r\n', 'latin1').copy(header);
  header.writeUInt16LE(11, 0x1a);
  header.writeUInt32LE(streamOffset + stream.length, 0x1c);
  visioPointer(20, headerLength, trailerLength, 0x50).copy(header, 0x24);
  return ole2({
    '/VisioDocument': Buffer.concat([header, trailerStream, stream]),
    '/\u0005SummaryInformation': Buffer.alloc(64),
  });
}

/** A compound file with a VBA `dir` stream under a storage of another name. */
export function renamedVbaStorageOle2(): Buffer {
  return ole2({
    '/Macros/PROJECT': Buffer.from('Module=Module1\r\n'),
    '/Macros/Code/dir': ovbaCompressLiterals('\x01\x00\x04\x00\x00\x00\x01\x00\x00\x00'),
  });
}

// ------------------------------------------------------------------------------ OOXML samples

/**
 * A workbook whose one sheet is large and repetitive, as generated reports are (rows of identical
 * cells; cell references are optional in SpreadsheetML): about 150:1 under deflate, far past the
 * ratio grace size.
 */
export function largeRepetitiveXlsx(rows = 20_000, columns = 28): Promise<Buffer> {
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const row = (index: number): string =>
    `<row r="${index}" spans="1:${columns}">${'<c s="1" t="n"><v>0</v></c>'.repeat(columns)}</row>`;
  const body = Array.from({ length: rows }, (_, index) => row(index + 1)).join('');
  return xlsx({
    extraEntries: {
      'xl/worksheets/sheet1.xml':
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${ns}">` +
        `<sheetData>${body}</sheetData></worksheet>`,
    },
  });
}

/** A Word document whose document part has a relationship to a VBA project under an innocent name. */
export function docxWithVbaRelationship(
  type = 'http://schemas.microsoft.com/office/2006/relationships/vbaProject',
): Promise<Buffer> {
  return docx({
    extraEntries: {
      'word/_rels/document.xml.rels':
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId9" Type="${type}" Target="media/image9.bin"/></Relationships>`,
      'word/media/image9.bin': Buffer.from('not really a picture'),
    },
  });
}

export function docm(): Promise<Buffer> {
  return docx({ mainContentType: OOXML_MAIN_CONTENT_TYPES.docm });
}

/** A gzip member, as `.emz`/`.wmz` pictures inside Office documents are. */
export function gzipped(content: Buffer): Buffer {
  return gzipSync(content);
}

// ---------------------------------------------------------------------- active content samples

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A `.rels` part with one external relationship, as Word writes linked templates and objects. */
function externalRelationship(type: string, target: string): string {
  return (
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="${R_NS}/${type}" Target="${target}" TargetMode="External"/>` +
    '</Relationships>'
  );
}

/** A Word document whose settings attach a template at `target` (remote template injection when remote). */
export function docxWithAttachedTemplate(target: string): Promise<Buffer> {
  return docx({
    extraEntries: {
      'word/settings.xml': `${XML_HEAD}<w:settings xmlns:w="${W_NS}" xmlns:r="${R_NS}"><w:attachedTemplate r:id="rId1"/></w:settings>`,
      'word/_rels/settings.xml.rels': externalRelationship('attachedTemplate', target),
    },
  });
}

/**
 * A Word document whose main part links an external object, subdocument, frame or picture (Follina
 * when `mhtml:`; a tracking picture or an NTLM hash leak when a remote `image`).
 */
export function docxWithExternalLink(
  type: 'oleObject' | 'subDocument' | 'frame' | 'image',
  target: string,
): Promise<Buffer> {
  const part = type === 'frame' ? 'word/_rels/webSettings.xml.rels' : 'word/_rels/document.xml.rels';
  return docx({ extraEntries: { [part]: externalRelationship(type, target) } });
}

/** A Word document whose body is `paragraphXml` (runs, fields). */
export function docxWithBody(paragraphXml: string): Promise<Buffer> {
  return docx({
    extraEntries: {
      'word/document.xml': `${XML_HEAD}<w:document xmlns:w="${W_NS}"><w:body><w:p>${paragraphXml}</w:p></w:body></w:document>`,
    },
  });
}

/** A complex field as Word writes it: begin, the instruction over one or more runs, separate, result, end. */
export function complexField(instructionRuns: readonly string[], result = ''): string {
  const run = (inner: string): string => `<w:r>${inner}</w:r>`;
  return (
    run('<w:fldChar w:fldCharType="begin"/>') +
    instructionRuns.map((text) => run(`<w:instrText xml:space="preserve">${text}</w:instrText>`)).join('') +
    run('<w:fldChar w:fldCharType="separate"/>') +
    run(`<w:t>${result}</w:t>`) +
    run('<w:fldChar w:fldCharType="end"/>')
  );
}

/** A workbook with `extra` parts (an external DDE link, a sheet with a DDE formula). */
export function xlsxWithParts(extra: ZipEntries): Promise<Buffer> {
  return xlsx({ extraEntries: extra });
}

/** The Word parts besides the body that hold paragraphs, and so fields. */
export type WordStoryPart = 'header1' | 'footer1' | 'footnotes';

/** A Word document whose header, footer or footnotes part holds a paragraph of `paragraphXml`. */
export function docxWithStoryPart(part: WordStoryPart, paragraphXml: string): Promise<Buffer> {
  const paragraph = `<w:p>${paragraphXml}</w:p>`;
  const xml = {
    header1: `<w:hdr xmlns:w="${W_NS}">${paragraph}</w:hdr>`,
    footer1: `<w:ftr xmlns:w="${W_NS}">${paragraph}</w:ftr>`,
    footnotes: `<w:footnotes xmlns:w="${W_NS}"><w:footnote w:id="1">${paragraph}</w:footnote></w:footnotes>`,
  }[part];
  return docx({ extraEntries: { [`word/${part}.xml`]: `${XML_HEAD}${xml}` } });
}

/** A workbook whose external link part points at another workbook at `target` (`externalLinkPath`). */
export function xlsxWithExternalWorkbook(target: string): Promise<Buffer> {
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  return xlsx({
    extraEntries: {
      'xl/externalLinks/externalLink1.xml':
        `${XML_HEAD}<externalLink xmlns="${ns}" xmlns:r="${R_NS}"><externalBook r:id="rId1">` +
        '<sheetNames><sheetName val="Sheet1"/></sheetNames></externalBook></externalLink>',
      'xl/externalLinks/_rels/externalLink1.xml.rels': externalRelationship('externalLinkPath', target),
    },
  });
}

/** A presentation whose slide shows a picture linked (not embedded) from `target`. */
export function pptxWithLinkedPicture(target: string): Promise<Buffer> {
  return pptx({
    extraEntries: {
      'ppt/slides/_rels/slide1.xml.rels':
        `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${R_NS}/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>` +
        `<Relationship Id="rId2" Type="${R_NS}/image" Target="${target}" TargetMode="External"/>` +
        '</Relationships>',
    },
  });
}
