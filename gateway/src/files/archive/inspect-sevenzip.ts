// 7z and RAR inspection with 7z-wasm: no native binary, nothing written to disk. The archive is
// copied into a worker's in-memory file system; 7-Zip lists it (names, sizes, links, encryption are
// judged before a byte is decompressed), then extracts it into memory where only each file's first
// bytes are kept (programs by magic, nested archives). Nested archives are opened in turn one level
// deeper: ZIPs and OOXML by the ZIP inspector, OLE2 documents by the OLE2 checks, anything else
// (7z, RAR, tar, gzip, bzip2, xz…) by 7-Zip again. A worker that times out, crashes, runs out of
// memory or hits an uncaught 7-Zip exception means the archive cannot be inspected:
// `archive_unreadable` (or `archive_bomb` when it was over its byte budget at the time).
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFile } from 'node:fs/promises';
import { AppError, isAppError } from '@intake/shared/errors';
import { MIME_7Z, MIME_RAR } from '@intake/shared/mime-types';
import type { ArchiveLimits } from '../types.js';
import { ArchiveBudget, MAX_NESTED_ARCHIVE_BYTES } from './budget.js';
import { HEAD_BYTES, archiveKind, checkEntryHead, isOle2Magic } from './entry-rules.js';
import { inspectOle2 } from './ole2.js';
import { checkRar4UnixLinks } from './rar4-headers.js';
import { parseListing } from './sevenzip-listing.js';
import type { SevenZipListing } from './sevenzip-listing.js';
import type { SevenZipPool, SevenZipSession } from './sevenzip-pool.js';
import { SevenZipWorkerError, sevenZipPool } from './sevenzip-pool.js';
import type { NestedFile } from './sevenzip-rules.js';
import { checkExtraction, checkListing, extractionCap, hasErrors, unreadable } from './sevenzip-rules.js';

/** Whole inspection of one upload, nested archives and worker start included. */
export const DEFAULT_SEVENZIP_TIMEOUT_MS = 15_000;

/**
 * How a ZIP nested in a 7z or RAR is inspected: the ZIP inspector's `inspectZipBuffer`. Handed in,
 * not imported: the ZIP inspector opens the 7z and RAR nested in a ZIP with this module, and an
 * import back would make the two modules a cycle.
 */
export type NestedZipInspector = (bytes: Buffer, budget: ArchiveBudget) => Promise<void>;

export interface SevenZipInspectOptions {
  timeoutMs?: number;
  /** Defaults to the process-wide pool. */
  pool?: SevenZipPool;
  inspectZip: NestedZipInspector;
}

// The session of the inspection under way: a 7z inside a ZIP inside a 7z reuses its worker (and its
// deadline) instead of waiting for a second one the outer inspection may be holding up.
const currentSession = new AsyncLocalStorage<SevenZipSession>();

/** 7-Zip's name for the format each MIME type must really be. */
const FORMATS: ReadonlyMap<string, readonly string[]> = new Map([
  [MIME_7Z, ['7z']],
  [MIME_RAR, ['Rar', 'Rar5']],
]);

/** 7-Zip lists no mode for RAR 4 entries from a Unix host: their headers are read for symlinks. */
function hasRar4UnixEntries(listing: SevenZipListing): boolean {
  return listing.type === 'Rar' && listing.entries.some((entry) => entry.hostOs === 'Unix');
}

/** Lists, checks and extracts one archive of the worker's memory, then its nested files. */
async function inspectInWorker(
  session: SevenZipSession,
  inspectZip: NestedZipInspector,
  file: string,
  budget: ArchiveBudget,
  expectedTypes?: readonly string[],
): Promise<void> {
  const list = await session.list(file, budget.limits.maxEntries);
  if (list.truncated) {
    budget.checkAnnouncedEntries(list.entryCount);
  }
  if (list.exitCode !== 0 || hasErrors(list.errorLines)) {
    throw unreadable();
  }
  const listing = parseListing(list.lines);
  checkListing(listing, budget, expectedTypes);
  if (hasRar4UnixEntries(listing)) {
    checkRar4UnixLinks(await session.read(file));
  }
  const extracted = await session.extract({
    file,
    maxTotalBytes: extractionCap(listing, budget),
    headBytes: HEAD_BYTES,
    keep: [],
  });
  const nested = checkExtraction(extracted, listing, budget);
  await session.remove(extracted.outDir);
  if (nested.length > 0) {
    await inspectNested(session, inspectZip, file, nested, extracted.totalBytes, budget);
  }
}

/** Batches of nested files, so no more than one nested archive's worth is held at a time. */
function batches(files: readonly NestedFile[], maxBytes: number): NestedFile[][] {
  const result: NestedFile[][] = [];
  let current: NestedFile[] = [];
  let size = 0;
  for (const file of files) {
    if (current.length > 0 && size + file.size > maxBytes) {
      result.push(current);
      current = [];
      size = 0;
    }
    current.push(file);
    size += file.size;
  }
  if (current.length > 0) {
    result.push(current);
  }
  return result;
}

/**
 * Extracts the archive again, this time keeping the nested files whole (they are only known once
 * the first extraction has shown their first bytes). `budget` is the containing archive's.
 */
async function inspectNested(
  session: SevenZipSession,
  inspectZip: NestedZipInspector,
  file: string,
  nested: readonly NestedFile[],
  totalBytes: number,
  budget: ArchiveBudget,
): Promise<void> {
  for (const batch of batches(nested, MAX_NESTED_ARCHIVE_BYTES)) {
    const keep = batch.map((item) => item.path);
    const kept = await session.extract({ file, maxTotalBytes: totalBytes, headBytes: 0, keep });
    if (kept.overBudget || kept.exitCode !== 0 || hasErrors(kept.errorLines)) {
      throw unreadable();
    }
    for (const item of batch) {
      const keptAt = kept.files.find((candidate) => candidate.path === item.path)?.keptAt;
      if (keptAt === undefined) {
        throw unreadable();
      }
      if (item.kind === 'sevenzip') {
        await inspectInWorker(session, inspectZip, keptAt, budget.nested());
      } else {
        await inspectNestedBytes(session, inspectZip, Buffer.from(await session.read(keptAt)), budget);
      }
    }
    await session.remove(kept.outDir);
  }
}

/**
 * The bytes of an entry of an archive whose budget is `budget` (a nested ZIP, an OLE2 document, an
 * OLE2 package's payload): judged like an entry, and opened one level deeper when a container.
 * The same levels as the ZIP inspector: an OLE2 document is not a level, its payloads are.
 */
async function inspectNestedBytes(
  session: SevenZipSession,
  inspectZip: NestedZipInspector,
  bytes: Buffer,
  budget: ArchiveBudget,
): Promise<void> {
  const head = bytes.subarray(0, HEAD_BYTES);
  checkEntryHead(head);
  if (isOle2Magic(head)) {
    for (const payload of inspectOle2(bytes)) {
      await inspectNestedBytes(session, inspectZip, payload.data, budget.nested());
    }
    return;
  }
  const kind = archiveKind(head);
  if (kind === 'zip') {
    await inspectZip(bytes, budget.nested());
  } else if (kind !== null) {
    const file = await session.load(bytes);
    await inspectInWorker(session, inspectZip, file, budget.nested());
    await session.remove(file);
  }
}

function asAppError(error: unknown): unknown {
  if (isAppError(error)) {
    return error;
  }
  if (error instanceof SevenZipWorkerError) {
    return error.overBudget
      ? new AppError('archive_bomb', 'The archive expands to more data than allowed.', { cause: error })
      : new AppError('archive_unreadable', 'The archive cannot be inspected.', { cause: error });
  }
  return error;
}

/**
 * Inspects a 7z or RAR archive already held in memory (a nested one, or an upload), charging
 * `budget`. Throws an AppError `archive_*` when it must be refused.
 */
export async function inspectSevenZipBuffer(
  bytes: Uint8Array,
  budget: ArchiveBudget,
  options: SevenZipInspectOptions & { expectedTypes?: readonly string[] },
): Promise<void> {
  const inspect = async (session: SevenZipSession): Promise<void> => {
    const file = await session.load(bytes);
    await inspectInWorker(session, options.inspectZip, file, budget, options.expectedTypes);
    await session.remove(file);
  };
  const session = currentSession.getStore();
  try {
    if (session !== undefined) {
      await inspect(session);
      return;
    }
    const pool = options.pool ?? sevenZipPool();
    await pool.run(options.timeoutMs ?? DEFAULT_SEVENZIP_TIMEOUT_MS, (own) =>
      currentSession.run(own, () => inspect(own)),
    );
  } catch (error) {
    throw asAppError(error);
  }
}

/**
 * Inspects the 7z or RAR archive at `path` (`mimeType` is the type stage's verdict). Resolves when
 * it may be stored; throws an AppError `archive_bomb`, `archive_path_traversal`,
 * `archive_executable`, `archive_macro` or `archive_unreadable` otherwise.
 */
export async function inspectSevenZip(
  path: string,
  mimeType: string,
  limits: ArchiveLimits,
  options: SevenZipInspectOptions,
): Promise<void> {
  const expectedTypes = FORMATS.get(mimeType);
  if (expectedTypes === undefined) {
    throw unreadable('This archive format cannot be inspected.');
  }
  // Uploads are capped (MAX_FILE_SIZE), so the whole file fits in memory.
  const bytes = await readFile(path);
  await inspectSevenZipBuffer(bytes, new ArchiveBudget(limits), { ...options, expectedTypes });
}
