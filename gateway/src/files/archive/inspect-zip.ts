// ZIP inspection (also DOCX, XLSX, PPTX, which are ZIPs), in three passes so that bombs are refused
// from their metadata before a byte is inflated: 1. the central directory (entry count, names and
// paths, symlinks, encryption, methods, declared sizes and ratios, dangerous names); 2. the local
// headers (agreement with the central directory, overlapping or hidden bytes); 3. the data, streamed
// in memory one entry at a time (actual sizes, CRCs, magic bytes, macro declarations, active content
// by ooxml-active-content.ts, nested archives one level deeper: ZIPs here, 7z/RAR/tar and entries
// named as containers by inspect-sevenzip.ts, OLE2 documents by ole2.ts, gzip members). Nothing is
// ever written to disk. What each check refuses: docs/security.md ("The file pipeline").
import { promisify } from 'node:util';
import { gunzip, inflateRawSync } from 'node:zlib';
import { AppError, isAppError } from '@intake/shared/errors';
import type { Entry, ZipFile } from 'yauzl';
import type { ArchiveLimits } from '../types.js';
import { ArchiveBudget, DEFAULT_ARCHIVE_LIMITS, MAX_NESTED_ARCHIVE_BYTES } from './budget.js';
import type { ContentKind, PartScanner } from './entry-content.js';
import { EntryContent, judgeHead } from './entry-content.js';
import { checkEntryName, checkNotSymlink, HEAD_BYTES, isContainerName, isUnixSymlinkMode } from './entry-rules.js';
import { inspectOle2 } from './ole2.js';
import { ActiveContentScanner, activeContentPartKind } from './ooxml-active-content.js';
import { OoxmlPartScanner, ooxmlPartKind } from './ooxml-parts.js';
import type { SharedZip } from './opened-zip.js';
import { OpenedZip, withZip } from './opened-zip.js';
import { readEntryNames } from './zip-entry-name.js';
import type { EntryExtent } from './zip-layout.js';
import { checkLayout } from './zip-layout.js';
import { checkLocalHeader } from './zip-local-header.js';

const gunzipAsync = promisify(gunzip);

const ENCRYPTED_FLAG = 0x1;
const DATA_DESCRIPTOR_FLAG = 0x8;
const STORED = 0;
const DEFLATED = 8;
/**
 * Entries this small (compressed and inflated) are read whole and inflated in one call: a zlib
 * stream per entry costs more than the entry, and 10,000 tiny entries would take seconds.
 */
const SMALL_COMPRESSED_BYTES = 64 * 1024;
const SMALL_INFLATED_BYTES = 1024 * 1024;
/** Windows FILE_ATTRIBUTE_REPARSE_POINT in the low (DOS) half of the external attributes. */
const DOS_REPARSE_POINT = 0x400;

interface CentralEntry {
  entry: Entry;
  /** The names extractors may use; the first is the decoded raw name. */
  names: string[];
}

// ---------------------------------------------------------------------------------------------
// Pass 1: the central directory
// ---------------------------------------------------------------------------------------------

function checkCentralEntry(entry: Entry, budget: ArchiveBudget): string[] {
  budget.addEntry();
  const names = readEntryNames(entry.fileNameRaw, entry.generalPurposeBitFlag, entry.extraFields);
  const attributes = entry.externalFileAttributes;
  checkNotSymlink(isUnixSymlinkMode(attributes >>> 16) || (attributes & DOS_REPARSE_POINT) !== 0);
  if ((entry.generalPurposeBitFlag & ENCRYPTED_FLAG) !== 0) {
    throw new AppError('archive_unreadable', 'An archive entry is encrypted and cannot be inspected.');
  }
  if (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED) {
    throw new AppError('archive_unreadable', 'An archive entry uses an unsupported compression method.');
  }
  for (const name of names) {
    checkEntryName(name);
  }
  budget.addDeclared(entry.compressedSize, entry.uncompressedSize);
  return names;
}

async function readCentralDirectory(zip: OpenedZip, budget: ArchiveBudget): Promise<CentralEntry[]> {
  // The end-of-central-directory record announces the count: a 100,000-entry bomb stops here.
  budget.checkAnnouncedEntries(zip.entryCount);
  const entries: CentralEntry[] = [];
  const offsets = new Set<number>();
  // The listing may already have been read by the type stage (an OOXML package): judged here.
  for (const entry of await zip.entries()) {
    const names = checkCentralEntry(entry, budget);
    // Two entries at one offset is the simplest overlap; no need to read a local header to see it.
    if (offsets.has(entry.relativeOffsetOfLocalHeader)) {
      throw new AppError('archive_bomb', 'Archive entries overlap.');
    }
    offsets.add(entry.relativeOffsetOfLocalHeader);
    entries.push({ entry, names });
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------
// Pass 2: local headers and layout
// ---------------------------------------------------------------------------------------------

async function checkLocalHeaders(
  zipfile: ZipFile,
  entries: readonly CentralEntry[],
  directoryOffset: number | null,
): Promise<void> {
  const extents: EntryExtent[] = [];
  for (const { entry } of entries) {
    const local = await zipfile.readLocalFileHeaderPromise(entry, { minimal: false });
    checkLocalHeader(entry, local);
    extents.push({
      start: entry.relativeOffsetOfLocalHeader,
      end: local.fileDataStart + entry.compressedSize,
      // Either header may announce the descriptor; the bytes after the data are the same.
      hasDataDescriptor: ((entry.generalPurposeBitFlag | local.generalPurposeBitFlag) & DATA_DESCRIPTOR_FLAG) !== 0,
    });
  }
  checkLayout(extents, directoryOffset);
}

// ---------------------------------------------------------------------------------------------
// Pass 3: the data
// ---------------------------------------------------------------------------------------------

async function readSmallEntry(zipfile: ZipFile, entry: Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zipfile.openReadStreamPromise(entry, { decodeFileData: false })) {
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  if (entry.compressionMethod === STORED) {
    return raw;
  }
  try {
    // One byte past the declared size is enough to know the entry lies.
    return inflateRawSync(raw, { maxOutputLength: entry.uncompressedSize + 1 });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new AppError('archive_bomb', 'An archive entry expands beyond its declared size.', { cause: error });
    }
    throw error;
  }
}

async function streamEntry(zipfile: ZipFile, entry: Entry, content: EntryContent): Promise<void> {
  const stream = await zipfile.openReadStreamPromise(entry);
  try {
    for await (const chunk of stream) {
      content.push(chunk as Buffer);
    }
  } finally {
    // Leaving the loop early (a refusal) must stop the inflater at once.
    stream.destroy();
  }
}

/** The scanners an entry's bytes go through while they inflate, by what its names say it is. */
function partScanners(names: readonly string[]): PartScanner[] {
  const scanners: PartScanner[] = [];
  const partKind = names.map(ooxmlPartKind).find((kind) => kind !== null) ?? null;
  if (partKind !== null) {
    scanners.push(new OoxmlPartScanner(partKind));
  }
  const activeKind = names.map(activeContentPartKind).find((kind) => kind !== null) ?? null;
  if (activeKind !== null) {
    scanners.push(new ActiveContentScanner(activeKind));
  }
  return scanners;
}

async function inspectEntryData(zipfile: ZipFile, central: CentralEntry, budget: ArchiveBudget): Promise<void> {
  const { entry, names } = central;
  const content = new EntryContent(entry.uncompressedSize, budget, partScanners(names), names.some(isContainerName));
  if (entry.compressedSize <= SMALL_COMPRESSED_BYTES && entry.uncompressedSize <= SMALL_INFLATED_BYTES) {
    content.push(await readSmallEntry(zipfile, entry));
  } else {
    await streamEntry(zipfile, entry, content);
  }
  const { kind, bytes } = content.finish(entry.crc32);
  if (kind !== 'plain') {
    // An archive in the archive is one level deeper; an OLE2 document or a gzip member is read where
    // it stands, like a deflated entry (what it wraps goes one level deeper).
    const isArchive = kind === 'zip' || kind === 'sevenzip';
    await openContainer(kind, bytes, isArchive ? budget.nested() : budget, names);
  }
}

/** `x.tar.gz` → `x.tar`, `x.tgz` → `x.tar`: the name the member of a gzip entry goes by. */
function gzipMemberName(name: string): string {
  return name.replace(/\.t[ga]z$/iu, '.tar').replace(/\.gz(?:ip)?$/iu, '');
}

/** Opens a container found inside the archive, charging `level` (the depth it is opened at). */
async function openContainer(
  kind: ContentKind,
  bytes: Buffer,
  level: ArchiveBudget,
  names: readonly string[] = [],
): Promise<void> {
  if (kind === 'zip') {
    await inspectZipBuffer(bytes, level);
  } else if (kind === 'ole2') {
    for (const payload of inspectOle2(bytes)) {
      await inspectWrapped(payload.data, level);
    }
  } else if (kind === 'gzip') {
    // A gzip member (`.emz` pictures in Office documents, `.tar.gz`) is inflated under the budget.
    const memberNames = names.map(gzipMemberName);
    await inspectWrapped(await gunzipBounded(bytes, level), level, memberNames.some(isContainerName));
  } else if (kind === 'sevenzip') {
    // Loaded on demand: the 7z/RAR inspector runs 7-Zip (WebAssembly) in workers. It opens the ZIPs
    // nested in a 7z or RAR with the function given here.
    const { inspectSevenZipBuffer } = await import('./inspect-sevenzip.js');
    await inspectSevenZipBuffer(bytes, level, { inspectZip: inspectZipBuffer });
  }
}

/** Bytes an OLE2 object or a gzip member wraps are judged like an entry; a container among them is one level deeper. */
async function inspectWrapped(bytes: Buffer, level: ArchiveBudget, namedContainer = false): Promise<void> {
  const kind = judgeHead(bytes.subarray(0, HEAD_BYTES), namedContainer);
  if (kind !== 'plain') {
    await openContainer(kind, bytes, level.nested());
  }
}

async function gunzipBounded(bytes: Buffer, budget: ArchiveBudget): Promise<Buffer> {
  let inner: Buffer;
  try {
    inner = await gunzipAsync(bytes, { maxOutputLength: MAX_NESTED_ARCHIVE_BYTES });
  } catch (error) {
    if (error instanceof RangeError) {
      throw new AppError('archive_bomb', 'A nested archive is larger than allowed.', { cause: error });
    }
    throw error;
  }
  budget.checkRatio(bytes.length, inner.length);
  budget.addActual(inner.length);
  return inner;
}

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

async function inspectOpenZip(zip: OpenedZip, budget: ArchiveBudget): Promise<void> {
  const entries = await readCentralDirectory(zip, budget);
  await checkLocalHeaders(zip.zipfile, entries, zip.directoryOffset);
  // In file order, so the file is read front to back.
  const ordered = [...entries].sort(
    (a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader,
  );
  for (const entry of ordered) {
    await inspectEntryData(zip.zipfile, entry, budget);
  }
}

/** An I/O failure on our own temporary file is a server fault, not a bad archive. */
function isSystemError(error: unknown): boolean {
  // Duck-typed: errors from Node's own modules may come from another realm (test sandboxes).
  return typeof error === 'object' && error !== null && 'syscall' in error;
}

async function refusingUnreadable(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (isAppError(error) || isSystemError(error)) {
      throw error;
    }
    // yauzl and zlib errors: truncated file, bad signatures, corrupt deflate data, bad extra fields.
    throw new AppError('archive_unreadable', 'The archive cannot be read to the end.', { cause: error });
  }
}

/** Inspects a ZIP held in memory (a nested archive), charging `budget` (already one level deeper). */
export async function inspectZipBuffer(bytes: Buffer, budget: ArchiveBudget): Promise<void> {
  await refusingUnreadable(async () => {
    await inspectOpenZip(await OpenedZip.ofBuffer(bytes), budget);
  });
}

/**
 * Inspects the ZIP (or OOXML document) at `path`, never extracting it, through `shared` when the
 * type stage has opened it already. Resolves when it may be stored; throws an AppError
 * `archive_bomb`, `archive_path_traversal`, `archive_executable`, `archive_macro`,
 * `document_active_content` or `archive_unreadable` otherwise.
 */
export async function inspectZip(
  path: string,
  limits: Readonly<ArchiveLimits> = DEFAULT_ARCHIVE_LIMITS,
  shared?: SharedZip,
): Promise<void> {
  const budget = new ArchiveBudget(limits);
  await refusingUnreadable(() => withZip(path, shared, (zip) => inspectOpenZip(zip, budget)));
}
