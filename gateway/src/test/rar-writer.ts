// A tiny RAR 5.0 writer for tests: STORED entries only, but every field an inspector reads can be
// set by hand (names such as `../evil`, declared sizes that differ from the data, host OS and
// attributes, symlinks, the encryption record). Layout from the RAR 5.0 technical note
// (https://www.rarlab.com/technote.htm): signature, main archive header, one file header per
// entry followed by its data, end of archive header. Every header is `CRC32, size, type, flags…`
// with the integers written as vints.
import { crc32 } from 'node:zlib';

const SIGNATURE = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00]);

const HEADER_MAIN = 1;
const HEADER_FILE = 2;
const HEADER_END = 5;

const HFL_EXTRA = 0x0001;
const HFL_DATA = 0x0002;

const FILE_DIRECTORY = 0x0001;
const FILE_CRC32 = 0x0004;

const EXTRA_ENCRYPTION = 0x01;
const EXTRA_REDIRECTION = 0x05;
const REDIRECTION_UNIX_SYMLINK = 0x0001;

export const RAR_HOST_WINDOWS = 0;
export const RAR_HOST_UNIX = 1;

export interface RarEntry {
  /** Stored as given (UTF-8), so it may hold `..`, `/`, `\`, a drive letter, control characters. */
  name: string;
  data?: Uint8Array;
  /** Declared unpacked size; defaults to the data length. */
  unpackedSize?: number;
  directory?: boolean;
  /** 0 Windows (default), 1 Unix. */
  hostOs?: number;
  /** Windows attributes or a Unix mode, as the host OS says; a sensible default otherwise. */
  attributes?: number;
  /** Adds a Unix symlink redirection record to this target (and a symlink mode). */
  symlinkTarget?: string;
  /** Adds a file encryption record: listers report the entry as encrypted. */
  encrypted?: boolean;
}

/** RAR's variable-length integer: 7 bits a byte, low bits first, high bit = more bytes follow. */
export function vint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = BigInt(value);
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest > 0n) {
      byte |= 0x80;
    }
    bytes.push(byte);
  } while (rest > 0n);
  return Buffer.from(bytes);
}

function uint32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value >>> 0);
  return b;
}

/** Wraps header fields (from the type on) with their CRC32 and size. */
function block(fields: Buffer): Buffer {
  const size = vint(fields.length);
  const crc = crc32(Buffer.concat([size, fields]));
  return Buffer.concat([uint32(crc), size, fields]);
}

function extraRecord(type: number, data: Buffer): Buffer {
  const body = Buffer.concat([vint(type), data]);
  return Buffer.concat([vint(body.length), body]);
}

function encryptionRecord(): Buffer {
  // AES-256, no password check value; KDF count, salt and IV are only read when decrypting.
  return extraRecord(
    EXTRA_ENCRYPTION,
    Buffer.concat([vint(0), vint(0), Buffer.from([15]), Buffer.alloc(16, 1), Buffer.alloc(16, 2)]),
  );
}

function symlinkRecord(target: string): Buffer {
  const name = Buffer.from(target, 'utf8');
  return extraRecord(
    EXTRA_REDIRECTION,
    Buffer.concat([vint(REDIRECTION_UNIX_SYMLINK), vint(0), vint(name.length), name]),
  );
}

function defaultAttributes(entry: RarEntry, hostOs: number): number {
  if (hostOs === RAR_HOST_UNIX) {
    if (entry.symlinkTarget !== undefined) {
      return 0o120777;
    }
    return entry.directory ? 0o040755 : 0o100644;
  }
  return entry.directory ? 0x10 : 0x20;
}

function fileBlock(entry: RarEntry): Buffer {
  const hostOs = entry.hostOs ?? RAR_HOST_WINDOWS;
  const data = Buffer.from(entry.symlinkTarget === undefined ? (entry.data ?? new Uint8Array()) : new Uint8Array());
  const name = Buffer.from(entry.name, 'utf8');
  const extra = Buffer.concat([
    entry.encrypted ? encryptionRecord() : Buffer.alloc(0),
    entry.symlinkTarget !== undefined ? symlinkRecord(entry.symlinkTarget) : Buffer.alloc(0),
  ]);
  const headerFlags = HFL_DATA | (extra.length > 0 ? HFL_EXTRA : 0);
  const fileFlags = FILE_CRC32 | (entry.directory ? FILE_DIRECTORY : 0);
  const fields = Buffer.concat([
    vint(HEADER_FILE),
    vint(headerFlags),
    extra.length > 0 ? vint(extra.length) : Buffer.alloc(0),
    vint(data.length),
    vint(fileFlags),
    vint(entry.unpackedSize ?? data.length),
    vint(entry.attributes ?? defaultAttributes(entry, hostOs)),
    uint32(crc32(data)),
    vint(0), // compression information: version 0, not solid, method 0 (store)
    vint(hostOs),
    vint(name.length),
    name,
    extra,
  ]);
  return Buffer.concat([block(fields), data]);
}

/** A whole RAR 5.0 archive holding `entries`, in order. */
export function buildRar(entries: readonly RarEntry[]): Buffer {
  const main = block(Buffer.concat([vint(HEADER_MAIN), vint(0), vint(0)]));
  const end = block(Buffer.concat([vint(HEADER_END), vint(0), vint(0)]));
  return Buffer.concat([SIGNATURE, main, ...entries.map(fileBlock), end]);
}

// ---------------------------------------------------------------------------------------------
// RAR 4.x (RAR 2.9–4.20), still what older tools and libarchive's test corpus write. Layout from
// the RAR 4.x technical note (`technote.txt` of RAR 4): marker block, archive header, one file
// header per entry followed by its data, end of archive. Every header is `HEAD_CRC u16` (the low
// half of the CRC32 of the rest of the header), `HEAD_TYPE u8`, `HEAD_FLAGS u16`, `HEAD_SIZE u16`.
// A Unix symlink is a file entry from a Unix host whose mode says S_IFLNK and whose stored data is
// the link's target.
// ---------------------------------------------------------------------------------------------

const RAR4_MARKER = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00]);
const RAR4_ARCHIVE_HEADER = 0x73;
const RAR4_FILE_HEADER = 0x74;
const RAR4_END = 0x7b;
/** Set on every file header: PACK_SIZE bytes of data follow the header. */
const RAR4_LONG_BLOCK = 0x8000;
const RAR4_DIRECTORY = 0x00e0;
const RAR4_METHOD_STORE = 0x30;

export const RAR4_HOST_WINDOWS = 2;
export const RAR4_HOST_UNIX = 3;

export interface Rar4Entry {
  name: string;
  data?: Uint8Array;
  directory?: boolean;
  /** 2 Win32 (default), 3 Unix. */
  hostOs?: number;
  /** Windows attributes or a Unix mode, as the host OS says; a sensible default otherwise. */
  attributes?: number;
  /** A Unix symlink to this target: mode 0o120777, the target as the entry's data. */
  symlinkTarget?: string;
}

function rar4Block(type: number, flags: number, fields: Buffer): Buffer {
  const rest = Buffer.alloc(5);
  rest[0] = type;
  rest.writeUInt16LE(flags, 1);
  rest.writeUInt16LE(7 + fields.length, 3);
  const body = Buffer.concat([rest, fields]);
  const crc = Buffer.alloc(2);
  crc.writeUInt16LE(crc32(body) & 0xffff);
  return Buffer.concat([crc, body]);
}

function rar4FileBlock(entry: Rar4Entry): Buffer {
  const symlink = entry.symlinkTarget !== undefined;
  const hostOs = symlink ? RAR4_HOST_UNIX : (entry.hostOs ?? RAR4_HOST_WINDOWS);
  const data = Buffer.from(symlink ? Buffer.from(entry.symlinkTarget ?? '', 'utf8') : (entry.data ?? new Uint8Array()));
  const name = Buffer.from(entry.name, 'latin1');
  const unix = hostOs === RAR4_HOST_UNIX;
  const attributes =
    entry.attributes ??
    (symlink ? 0o120777 : unix ? (entry.directory ? 0o040755 : 0o100644) : entry.directory ? 0x10 : 0x20);
  const fields = Buffer.alloc(25);
  fields.writeUInt32LE(data.length, 0); // PACK_SIZE
  fields.writeUInt32LE(data.length, 4); // UNP_SIZE
  fields[8] = hostOs;
  fields.writeUInt32LE(crc32(data) >>> 0, 9); // FILE_CRC
  fields.writeUInt32LE(0x5b7a0000, 13); // FTIME (MS-DOS date and time, 2025-11-26)
  fields[17] = 29; // UNP_VER: RAR 2.9
  fields[18] = RAR4_METHOD_STORE;
  fields.writeUInt16LE(name.length, 19);
  fields.writeUInt32LE(attributes >>> 0, 21);
  const flags = RAR4_LONG_BLOCK | (entry.directory ? RAR4_DIRECTORY : 0);
  return Buffer.concat([rar4Block(RAR4_FILE_HEADER, flags, Buffer.concat([fields, name])), data]);
}

/** A whole RAR 4.x archive holding `entries`, in order, every one stored. */
export function buildRar4(entries: readonly Rar4Entry[]): Buffer {
  const archive = rar4Block(RAR4_ARCHIVE_HEADER, 0, Buffer.alloc(6));
  const end = rar4Block(RAR4_END, 0x4000, Buffer.alloc(0));
  return Buffer.concat([RAR4_MARKER, archive, ...entries.map(rar4FileBlock), end]);
}
