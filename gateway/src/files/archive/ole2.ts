// OLE2 compound files found inside an archive (`vbaProject.bin` under any name, `.doc`/`.xls`,
// OOXML `embeddings/*.bin`, `.msi`). The name of such an entry can be anything; its structure
// cannot, so we parse it with `cfb` and look for VBA projects, installers, encrypted packages and
// "Package" objects (`\x01Ole10Native`) that wrap a file.
import { AppError } from '@intake/shared';
import CFB from 'cfb';
import type { CFB$Blob, CFB$Container } from 'cfb';
import { checkEntryName } from './entry-rules.js';

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

/** A VBA project lives in a `VBA` storage (with `dir` and `_VBA_PROJECT` streams) per MS-OVBA. */
function isVbaStream(segments: string[]): boolean {
  const storages = segments.slice(0, -1);
  return (
    storages.includes('vba') ||
    storages.includes('_vba_project_cur') ||
    segments[segments.length - 1] === '_vba_project'
  );
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
 * Throws `archive_macro` for a VBA project, `archive_executable` for an installer or a packaged
 * executable, `archive_unreadable` for an encrypted or unparsable file. Returns the payloads the
 * caller must inspect as entry content (magic bytes, nested archives).
 */
export function inspectOle2(bytes: Buffer): Ole2Payload[] {
  const container = parse(bytes);
  const root = container.FileIndex[0];
  if (root !== undefined && INSTALLER_CLSIDS.has(root.clsid.toLowerCase())) {
    throw new AppError('archive_executable', 'An archive entry is an installer package.');
  }
  const streams = streamPaths(container);
  if (streams.some((stream) => isVbaStream(stream.segments))) {
    throw new AppError('archive_macro', 'An archive entry holds a VBA macro project.');
  }
  const payloads: Ole2Payload[] = [];
  for (const { segments, content } of streams) {
    const name = segments[segments.length - 1];
    if (name === 'encryptedpackage') {
      throw new AppError('archive_unreadable', 'An archive entry is encrypted and cannot be inspected.');
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
