// OLE2 compound files found inside an archive (`vbaProject.bin` under any name, `.doc`/`.xls`,
// OOXML `embeddings/*.bin`, `.msi`). The name of such an entry can be anything; its structure
// cannot, so we parse it with `cfb` and look for VBA projects, installers, encrypted packages and
// "Package" objects (`\x01Ole10Native`) that wrap a file.
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { AppError } from '@intake/shared/errors';
import CFB from 'cfb';
import type { CFB$Blob, CFB$Container } from 'cfb';
import { MAX_NESTED_ARCHIVE_BYTES } from './budget.js';
import { checkEntryName, isOle2Magic } from './entry-rules.js';
import { isEmptyDocumentProject } from './vba-project.js';
import { isVisioDocument, visioStorages } from './visio.js';

const STREAM = 2;

/** Root CLSIDs (raw byte order, as `cfb` gives them) of Windows Installer packages, patches, transforms. */
const INSTALLER_CLSIDS = new Set([
  '84100c0000000000c000000000000046', // {000C1084-…} .msi
  '86100c0000000000c000000000000046', // {000C1086-…} .msp
  '82100c0000000000c000000000000046', // {000C1082-…} .mst
]);

/** Bytes found inside the compound file that must be inspected like an archive entry. */
export interface Ole2Payload {
  data: Buffer;
}

function toBuffer(blob: CFB$Blob | undefined): Buffer {
  if (blob === undefined) {
    return Buffer.alloc(0);
  }
  return Buffer.isBuffer(blob) ? blob : Buffer.from(blob);
}

function unreadable(): AppError {
  return new AppError('archive_unreadable', 'An embedded document cannot be inspected.');
}

function parse(bytes: Buffer): CFB$Container {
  try {
    return CFB.read(bytes, { type: 'buffer' });
  } catch (error) {
    throw new AppError('archive_unreadable', 'An embedded document cannot be inspected.', { cause: error });
  }
}

/** Stream paths below the root, as lower-case segments. */
function streamPaths(container: CFB$Container): { segments: string[]; content: Buffer }[] {
  const streams: { segments: string[]; content: Buffer }[] = [];
  container.FileIndex.forEach((entry, index) => {
    if (entry.type !== STREAM) {
      return;
    }
    const path = container.FullPaths[index] ?? '';
    // FullPaths start with the root storage's name ("Root Entry/…").
    const segments = path.toLowerCase().split('/').slice(1);
    streams.push({ segments, content: toBuffer(entry.content) });
  });
  return streams;
}

/**
 * A VBA project lives in a `VBA` storage (with `dir` and `_VBA_PROJECT` streams) per MS-OVBA. Its
 * `dir` stream is an MS-OVBA compressed container, whose signature byte is 0x01, wherever it sits.
 */
function isVbaStream(segments: string[], content: Buffer): boolean {
  const storages = segments.slice(0, -1);
  const name = segments[segments.length - 1];
  return (
    storages.includes('vba') ||
    storages.includes('_vba_project_cur') ||
    name === '_vba_project' ||
    (name === 'dir' && content[0] === 0x01)
  );
}

/**
 * The start of a VBA module's source as MS-OVBA compresses it: every module begins with
 * `Attribute VB_Name`, whose first sixteen bytes are literals, each group of eight after a zero
 * flag byte. It shows wherever an application keeps its VBA project in a stream of its own (Visio,
 * Publisher, and others that do not use a `VBA` storage).
 */
const COMPRESSED_VBA_MODULE = Buffer.from('\0Attribut\0e VB_', 'latin1');

// ---------------------------------------------------------------------------------------------
// PowerPoint 97–2003 keeps its VBA project (and embedded objects) as whole compound files inside
// the `PowerPoint Document` stream, in ExOleObjStg records, zlib-compressed when recInstance is 1
// (MS-PPT 2.10.34). Record header: [recVer:4 recInstance:12 u16] [recType u16] [recLen u32].
// PowerPoint finds records through its persist directory, by offset, so a record may sit inside
// another record's data: every offset whose header says ExOleObjStg is tried, not only those a
// walk from the start reaches. A candidate that is no compound file is random data, and skipped.
// ---------------------------------------------------------------------------------------------

const PPT_EX_OLE_OBJ_STG = Buffer.from([0x11, 0x10]);
/** Compound files inside compound files: PowerPoint nests them once; more is refused, not walked. */
const MAX_EMBEDDED_STORAGE_DEPTH = 3;
/** Embedded objects in one presentation; more is refused rather than inflated one by one. */
const MAX_PPT_STORAGES = 256;

/** The compound file a candidate record holds, or null when it holds none. */
function storageAt(stream: Buffer, offset: number): Buffer | null {
  const versionAndInstance = stream.readUInt16LE(offset);
  const instance = versionAndInstance >>> 4;
  const length = stream.readUInt32LE(offset + 4);
  if ((versionAndInstance & 0xf) !== 0 || instance > 1 || length > stream.length - offset - 8) {
    return null;
  }
  const data = stream.subarray(offset + 8, offset + 8 + length);
  let storage = data;
  if (instance === 1) {
    try {
      // The first four bytes give the inflated size; the compound file is never larger than a nested
      // archive. PowerPoint reads the zlib data without checking its end: files whose stream stops
      // before the closing Adler-32 (or is cut short) open, so a sync flush takes what inflates.
      storage = inflateSync(data.subarray(4), {
        maxOutputLength: MAX_NESTED_ARCHIVE_BYTES,
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
      });
    } catch (error) {
      if (error instanceof RangeError) {
        throw new AppError('archive_bomb', 'An embedded document expands beyond the limits.', { cause: error });
      }
      return null;
    }
  }
  return isOle2Magic(storage) ? storage : null;
}

/** The compound files stored in a `PowerPoint Document` stream. */
function powerPointStorages(stream: Buffer): Buffer[] {
  const storages: Buffer[] = [];
  for (let at = stream.indexOf(PPT_EX_OLE_OBJ_STG, 2); at >= 2; at = stream.indexOf(PPT_EX_OLE_OBJ_STG, at + 1)) {
    if (at + 6 > stream.length) {
      break;
    }
    const storage = storageAt(stream, at - 2);
    if (storage !== null) {
      storages.push(storage);
      if (storages.length > MAX_PPT_STORAGES) {
        throw unreadable();
      }
    }
  }
  return storages;
}

// ---------------------------------------------------------------------------------------------
// Excel 97–2003: the globals substream of the `Workbook` (BIFF8) or `Book` (BIFF5) stream names
// every sheet in a BOUNDSHEET record (MS-XLS 2.4.28), whose `dt` byte is 1 for an Excel 4.0 (XLM)
// macro sheet and 6 for an Excel 5 VBA module sheet. Records: [type u16] [length u16] data.
// ---------------------------------------------------------------------------------------------

const BIFF_BOUNDSHEET = 0x0085;
const BIFF_EOF = 0x000a;
const SHEET_TYPE_MACRO = 0x01;
const SHEET_TYPE_VBA_MODULE = 0x06;

function hasMacroSheet(stream: Buffer): boolean {
  let offset = 0;
  while (offset + 4 <= stream.length) {
    const type = stream.readUInt16LE(offset);
    const length = stream.readUInt16LE(offset + 2);
    offset += 4;
    if (type === BIFF_EOF) {
      return false; // the end of the globals substream: every sheet has been named
    }
    if (type === BIFF_BOUNDSHEET && length >= 6) {
      const sheetType = stream[offset + 5];
      if (sheetType === SHEET_TYPE_MACRO || sheetType === SHEET_TYPE_VBA_MODULE) {
        return true;
      }
    }
    offset += length;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// `\x01Ole10Native`: [size u32] [type u16] label\0 sourcePath\0 [u32] [tempPathLength u32] tempPath
// [dataSize u32] data, then optionally the three names again as length-prefixed UTF-16LE.
// ---------------------------------------------------------------------------------------------

class Reader {
  offset = 0;
  constructor(private readonly bytes: Buffer) {}

  remaining(): number {
    return this.bytes.length - this.offset;
  }

  u16(): number {
    this.need(2);
    const value = this.bytes.readUInt16LE(this.offset);
    this.offset += 2;
    return value;
  }

  u32(): number {
    this.need(4);
    const value = this.bytes.readUInt32LE(this.offset);
    this.offset += 4;
    return value;
  }

  take(length: number): Buffer {
    this.need(length);
    const value = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  zeroTerminated(): string {
    const end = this.bytes.indexOf(0, this.offset);
    if (end < 0) {
      throw unreadable();
    }
    const value = this.bytes.toString('latin1', this.offset, end);
    this.offset = end + 1;
    return value;
  }

  private need(length: number): void {
    if (length > this.remaining()) {
      throw unreadable();
    }
  }
}

/** Names Windows may use for the packaged file (label, source path, temp path), and its bytes. */
function parseOle10Native(stream: Buffer): { names: string[]; data: Buffer } {
  const reader = new Reader(stream);
  reader.u32(); // total size
  reader.u16(); // type
  const names = [reader.zeroTerminated(), reader.zeroTerminated()];
  reader.u32(); // reserved (0x00030000 for an embedded file)
  names.push(reader.take(reader.u32()).toString('latin1').replace(/\0+$/u, ''));
  const data = reader.take(reader.u32());
  // The Unicode copies of the three names follow in newer packages; the shell prefers them.
  for (let index = 0; index < 3 && reader.remaining() >= 4; index += 1) {
    names.push(reader.take(reader.u32() * 2).toString('utf16le'));
  }
  return { names: names.filter((name) => name.length > 0), data };
}

function packagedFileName(path: string): string {
  // Windows paths inside the package: only the last segment names the file that will be run.
  const segments = path.split(/[\\/]/u);
  return segments[segments.length - 1] ?? '';
}

/**
 * Throws `archive_macro` for a VBA project (a VBA storage, a `dir` stream, a compressed module
 * anywhere, a PowerPoint 97–2003 project) or an Excel 4.0 macro sheet, `archive_executable` for an
 * installer or a packaged executable, `archive_unreadable` for an encrypted or unparsable file.
 * Returns the payloads the caller must inspect as entry content (magic bytes, nested archives).
 */
export function inspectOle2(bytes: Buffer, depth = 1, options: { inVisioDrawing?: boolean } = {}): Ole2Payload[] {
  if (depth > MAX_EMBEDDED_STORAGE_DEPTH) {
    throw unreadable();
  }
  const container = parse(bytes);
  const root = container.FileIndex[0];
  if (root !== undefined && INSTALLER_CLSIDS.has(root.clsid.toLowerCase())) {
    throw new AppError('archive_executable', 'An archive entry is an installer package.');
  }
  // The VBA project Visio saves on its own runs nothing (vba-project.ts): its streams are left out.
  const emptyProject = options.inVisioDrawing === true && isEmptyDocumentProject(container);
  const streams = streamPaths(container).filter((stream) => !(emptyProject && stream.segments[0] === 'vba'));
  if (streams.some((stream) => isVbaStream(stream.segments, stream.content))) {
    throw new AppError('archive_macro', 'An archive entry holds a VBA macro project.');
  }
  if (streams.some((stream) => stream.content.includes(COMPRESSED_VBA_MODULE))) {
    throw new AppError('archive_macro', 'An archive entry holds a VBA macro module.');
  }
  const payloads: Ole2Payload[] = [];
  for (const { segments, content } of streams) {
    const name = segments[segments.length - 1];
    if (name === 'encryptedpackage') {
      throw new AppError('archive_unreadable', 'An archive entry is encrypted and cannot be inspected.');
    }
    if (segments.length === 1 && (name === 'workbook' || name === 'book') && hasMacroSheet(content)) {
      throw new AppError('archive_macro', 'An archive entry holds an Excel 4.0 macro sheet.');
    }
    if (segments.length === 1 && name === 'powerpoint document') {
      for (const storage of powerPointStorages(content)) {
        payloads.push(...inspectOle2(storage, depth + 1));
      }
    }
    if (segments.length === 1 && name === 'visiodocument' && isVisioDocument(content)) {
      for (const storage of visioStorages(content)) {
        payloads.push(...inspectOle2(storage, depth + 1, { inVisioDrawing: true }));
      }
    }
    if (name === '\u0001ole10native') {
      const packaged = parseOle10Native(content);
      for (const packagedName of packaged.names) {
        checkEntryName(packagedFileName(packagedName));
      }
      payloads.push({ data: packaged.data });
    } else if (name === 'package' || name === 'contents') {
      // Embedded OOXML documents and other files are stored whole in these streams.
      payloads.push({ data: content });
    }
  }
  return payloads;
}
