// One archive entry's bytes, judged while they inflate: the declared size is a hard ceiling (we stop
// at the first byte beyond it), every byte is charged to the budget, the CRC must match, the first
// bytes must not be a program, and the entry is kept in memory only when it must be opened in turn
// (a nested archive, an OLE2 compound file, a gzip stream), under a size cap.
import { crc32 } from 'node:zlib';
import { AppError } from '@intake/shared/errors';
import type { ArchiveBudget } from './budget.js';
import { MAX_NESTED_ARCHIVE_BYTES } from './budget.js';
import { archiveKind, checkEntryHead, HEAD_BYTES, isOle2Magic } from './entry-rules.js';

/**
 * What an entry's first bytes say it is, among the things we look inside: `sevenzip` is every
 * container 7-Zip opens for us (7z, RAR, tar, bzip2, xz, cab).
 */
export type ContentKind = 'zip' | 'ole2' | 'gzip' | 'sevenzip' | 'plain';

/**
 * Judges an entry by its first bytes: throws `archive_executable` for a program and
 * `archive_unreadable` for a container nothing here opens (zstd): an archive inside the archive
 * that stays closed could hide anything. `namedContainer` (the entry's name says tar, iso, gz…)
 * sends content without a known signature to 7-Zip, which opens it or refuses it.
 */
export function judgeHead(head: Uint8Array, namedContainer = false): ContentKind {
  checkEntryHead(head);
  if (isOle2Magic(head)) {
    return 'ole2';
  }
  const kind = archiveKind(head);
  if (kind === null) {
    // An empty entry hides nothing, whatever its name.
    return namedContainer && head.length > 0 ? 'sevenzip' : 'plain';
  }
  if (kind === 'zip' || kind === 'gzip') {
    return kind;
  }
  if (kind === 'zstd') {
    throw new AppError('archive_unreadable', 'An archive inside the archive cannot be inspected.');
  }
  return 'sevenzip';
}

function shorterThanDeclared(): AppError {
  return new AppError('archive_unreadable', 'An archive entry is shorter than its declared size.');
}

/** Reads an entry's bytes as they inflate (the OOXML declaration and active-content scanners). */
export interface PartScanner {
  push(chunk: Uint8Array): void;
  finish(): void;
}

export class EntryContent {
  private readonly declaredSize: number;
  private readonly budget: ArchiveBudget;
  private readonly scanners: readonly PartScanner[];
  private readonly namedContainer: boolean;
  private size = 0;
  private crc = 0;
  /** Bytes seen before the verdict on the head, then (for nested content) every byte. */
  private chunks: Buffer[] = [];
  private kind: ContentKind | null = null;

  constructor(
    declaredSize: number,
    budget: ArchiveBudget,
    scanners: readonly PartScanner[] = [],
    namedContainer = false,
  ) {
    this.declaredSize = declaredSize;
    this.budget = budget;
    this.scanners = scanners;
    this.namedContainer = namedContainer;
  }

  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.declaredSize) {
      throw new AppError('archive_bomb', 'An archive entry expands beyond its declared size.');
    }
    this.budget.addActual(chunk.length);
    this.crc = crc32(chunk, this.crc);
    for (const scanner of this.scanners) {
      scanner.push(chunk);
    }
    if (this.kind === null) {
      this.chunks.push(chunk);
      if (this.size >= HEAD_BYTES) {
        this.judge();
      }
    } else if (this.kind !== 'plain') {
      this.chunks.push(chunk);
    }
  }

  /** Ends the entry; returns its kind and, unless plain, all its bytes. */
  finish(expectedCrc: number): { kind: ContentKind; bytes: Buffer } {
    if (this.size < this.declaredSize) {
      throw shorterThanDeclared();
    }
    if (this.crc !== expectedCrc) {
      throw new AppError('archive_unreadable', 'An archive entry fails its CRC check.');
    }
    for (const scanner of this.scanners) {
      scanner.finish();
    }
    if (this.kind === null) {
      this.judge();
    }
    const kind = this.kind ?? 'plain';
    return { kind, bytes: kind === 'plain' ? Buffer.alloc(0) : Buffer.concat(this.chunks, this.size) };
  }

  private judge(): void {
    const seen = Buffer.concat(this.chunks);
    this.kind = judgeHead(seen.subarray(0, HEAD_BYTES), this.namedContainer);
    if (this.kind === 'plain') {
      this.chunks = [];
      return;
    }
    // Decided before holding a byte more: nested content is kept whole, so it must be small.
    if (this.declaredSize > MAX_NESTED_ARCHIVE_BYTES) {
      throw new AppError('archive_bomb', 'A nested archive is larger than allowed.');
    }
  }
}
