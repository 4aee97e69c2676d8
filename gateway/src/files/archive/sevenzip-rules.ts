// The archive rules (entry-rules.ts, budget.ts) applied to what 7-Zip reports: first to the listing
// (before a byte is decompressed), then to the extraction (actual sizes and first bytes). Pure
// functions over the worker's answers; they throw the contract's AppError.
import { AppError } from '@intake/shared/errors';
import type { ArchiveBudget } from './budget.js';
import { MAX_NESTED_ARCHIVE_BYTES } from './budget.js';
import {
  archiveKind,
  baseName,
  checkEntryHead,
  checkEntryName,
  checkEntryPath,
  checkNotSymlink,
  isContainerName,
  isOle2Magic,
} from './entry-rules.js';
import type { ExtractResponse } from './sevenzip-protocol.js';
import type { SevenZipEntry, SevenZipListing } from './sevenzip-listing.js';

/** How a nested file is opened: by the ZIP inspector, as OLE2, or by 7-Zip (every other format). */
export type NestedKind = 'zip' | 'ole2' | 'sevenzip';

export interface NestedFile {
  /** Where 7-Zip wrote it, relative to the extraction folder. */
  path: string;
  size: number;
  kind: NestedKind;
}

// ZIP-based documents: with the container names of entry-rules.ts, names that make an entry one
// nesting level deeper whatever its bytes turn out to be.
const ZIP_DOCUMENT_EXTENSIONS = new Set(['docx', 'xlsx', 'pptx']);

export function unreadable(detail = 'The archive cannot be read to the end.'): AppError {
  return new AppError('archive_unreadable', detail);
}

export function isArchiveName(name: string): boolean {
  const base = baseName(name).toLowerCase();
  const dot = base.lastIndexOf('.');
  return isContainerName(name) || (dot >= 0 && ZIP_DOCUMENT_EXTENSIONS.has(base.slice(dot + 1)));
}

/** 7-Zip prints blank lines to stderr around its messages; anything else is an error. */
export function hasErrors(errorLines: readonly string[]): boolean {
  return errorLines.some((line) => line.trim() !== '');
}

/** Entries sharing a solid block are compressed together: sizes and ratios are judged per block. */
function groups(entries: readonly SevenZipEntry[]): SevenZipEntry[][] {
  const byBlock = new Map<string, SevenZipEntry[]>();
  const result: SevenZipEntry[][] = [];
  for (const entry of entries) {
    if (entry.block === undefined) {
      result.push([entry]);
      continue;
    }
    let group = byBlock.get(entry.block);
    if (group === undefined) {
      group = [];
      byBlock.set(entry.block, group);
      result.push(group);
    }
    group.push(entry);
  }
  return result;
}

function sum(values: readonly (number | undefined)[]): number {
  return values.reduce<number>((total, value) => total + (value ?? 0), 0);
}

/**
 * Judges the listing: its integrity and format, then every entry's path, link flag, name and
 * encryption, then the declared sizes and ratios. Throws; returns nothing.
 */
export function checkListing(
  listing: SevenZipListing,
  budget: ArchiveBudget,
  expectedTypes: readonly string[] | undefined,
): void {
  if (listing.problems.length > 0) {
    throw unreadable();
  }
  if (expectedTypes !== undefined && !expectedTypes.includes(listing.type)) {
    throw unreadable('The archive is not in the format its type says.');
  }
  budget.checkAnnouncedEntries(listing.entries.length);
  let nestedByName = false;
  for (const entry of listing.entries) {
    budget.addEntry();
    checkEntryPath(entry.path);
    checkNotSymlink(entry.isLink);
    checkEntryName(entry.path);
    if (entry.isEncrypted) {
      throw unreadable('An archive entry is encrypted and cannot be inspected.');
    }
    nestedByName ||= !entry.isDirectory && isArchiveName(entry.path);
  }
  // Refused here, before decompressing, when the names alone already go too deep.
  if (nestedByName) {
    budget.nested();
  }
  for (const group of groups(listing.entries)) {
    budget.addDeclared(sum(group.map((entry) => entry.packedSize)), sum(group.map((entry) => entry.size)));
  }
}

/** The most bytes the extraction may produce: the declared total when every size is known. */
export function extractionCap(listing: SevenZipListing, budget: ArchiveBudget): number {
  const limit = budget.limits.maxTotalUncompressedBytes;
  const sizes = listing.entries.map((entry) => entry.size);
  if (sizes.every((size) => size !== undefined)) {
    return Math.min(limit, sum(sizes));
  }
  return limit;
}

/** By first bytes; else by a container name (tar, iso, gz…), sent to 7-Zip, which opens it or refuses it. */
function nestedKind(head: Uint8Array, path: string): NestedKind | null {
  if (isOle2Magic(head)) {
    return 'ole2';
  }
  const kind = archiveKind(head);
  if (kind === null) {
    // An empty file hides nothing, whatever its name.
    return head.length > 0 && isContainerName(path) ? 'sevenzip' : null;
  }
  return kind === 'zip' ? 'zip' : 'sevenzip';
}

/**
 * Judges the extraction: it went to the end, produced no more than declared or allowed, and holds
 * no program. Returns the files to open in turn (nested archives, OLE2 documents).
 */
export function checkExtraction(
  result: ExtractResponse,
  listing: SevenZipListing,
  budget: ArchiveBudget,
): NestedFile[] {
  if (result.overBudget) {
    throw new AppError('archive_bomb', 'The archive expands to more data than allowed or declared.');
  }
  if (result.exitCode !== 0 || hasErrors(result.errorLines) || result.uncaptured > 0) {
    throw unreadable();
  }
  budget.addActual(result.totalBytes);
  const produced = new Map(result.files.map((file) => [file.path, file.size]));
  for (const entry of listing.entries) {
    const actual = produced.get(entry.path);
    if (actual !== undefined && entry.size !== undefined && actual > entry.size) {
      throw new AppError('archive_bomb', 'An archive entry expands beyond its declared size.');
    }
  }
  for (const group of groups(listing.entries)) {
    budget.checkRatio(sum(group.map((entry) => entry.packedSize)), sum(group.map((entry) => produced.get(entry.path))));
  }
  const nested: NestedFile[] = [];
  for (const file of result.files) {
    checkEntryHead(file.head);
    const kind = nestedKind(file.head, file.path);
    if (kind !== null) {
      nested.push({ path: file.path, size: file.size, kind });
    }
  }
  // An OLE2 document is not a level of its own (its payloads are, as in the ZIP inspector).
  if (nested.some((file) => file.kind !== 'ole2')) {
    budget.nested();
  }
  if (nested.some((file) => file.size > MAX_NESTED_ARCHIVE_BYTES)) {
    throw new AppError('archive_bomb', 'A nested archive is larger than allowed.');
  }
  return nested;
}
