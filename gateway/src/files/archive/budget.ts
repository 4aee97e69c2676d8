// What one uploaded archive may cost, summed over every archive nested inside it. Each inspector
// (ZIP, 7z, RAR) charges the same budget, so a bomb cannot hide by spreading over nesting levels.
import { AppError } from '@intake/shared/errors';
import type { ArchiveLimits } from '../types.js';

/**
 * Documented defaults (all configurable through `ArchiveLimits`):
 * - `maxEntries` 10,000 entries in the whole tree (a large real XLSX has a few hundred parts).
 * - `maxTotalUncompressedBytes` 1 GiB, declared and actual, summed over the whole tree.
 * - `maxRatio` 250:1 once an entry expands past `ratioGraceBytes` (1 MiB): a repetitive XLSX sheet
 *   reaches ~150:1, deflate tops out near 1,032:1, so 250 leaves room for real files and none for
 *   bombs. Small entries are exempt: a 10 KiB run of spaces compresses past 250:1 and harms no one.
 * - `maxNestingDepth` 3: the uploaded archive is depth 1, an XLSX embedded in a DOCX in a ZIP is 3.
 */
export const DEFAULT_ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxEntries: 10_000,
  maxTotalUncompressedBytes: 1024 * 1024 * 1024,
  maxRatio: 250,
  ratioGraceBytes: 1024 * 1024,
  maxNestingDepth: 3,
});

/**
 * Largest nested archive (or OLE2 compound file) held in memory for inspection. A nested archive is
 * itself compressed data, so inside a 10 MiB upload anything this large already means expansion.
 */
export const MAX_NESTED_ARCHIVE_BYTES = 32 * 1024 * 1024;

interface Totals {
  entries: number;
  declaredBytes: number;
  actualBytes: number;
}

function bomb(detail: string): AppError {
  return new AppError('archive_bomb', detail);
}

/** Counters shared by an archive and every archive nested in it; each method throws `archive_bomb`. */
export class ArchiveBudget {
  readonly limits: Readonly<ArchiveLimits>;
  /** 1 for the uploaded archive, 2 for an archive inside it, and so on. */
  readonly depth: number;
  private readonly totals: Totals;

  constructor(limits: Readonly<ArchiveLimits> = DEFAULT_ARCHIVE_LIMITS, depth = 1, totals?: Totals) {
    this.limits = limits;
    this.depth = depth;
    this.totals = totals ?? { entries: 0, declaredBytes: 0, actualBytes: 0 };
    if (depth > limits.maxNestingDepth) {
      throw bomb('The archive nests archives deeper than allowed.');
    }
  }

  /** The budget of an archive found inside this one: same totals, one level deeper. */
  nested(): ArchiveBudget {
    return new ArchiveBudget(this.limits, this.depth + 1, this.totals);
  }

  /** Checks an entry count announced up front (e.g. by an end-of-central-directory record). */
  checkAnnouncedEntries(count: number): void {
    if (this.totals.entries + count > this.limits.maxEntries) {
      throw bomb('The archive holds more entries than allowed.');
    }
  }

  addEntry(): void {
    this.totals.entries += 1;
    if (this.totals.entries > this.limits.maxEntries) {
      throw bomb('The archive holds more entries than allowed.');
    }
  }

  /** Charges an entry's declared sizes, before any byte of it is inflated. */
  addDeclared(compressedBytes: number, uncompressedBytes: number): void {
    this.checkRatio(compressedBytes, uncompressedBytes);
    this.totals.declaredBytes += uncompressedBytes;
    if (this.totals.declaredBytes > this.limits.maxTotalUncompressedBytes) {
      throw bomb('The archive declares more uncompressed data than allowed.');
    }
  }

  /** Charges bytes actually produced while inflating. */
  addActual(bytes: number): void {
    this.totals.actualBytes += bytes;
    if (this.totals.actualBytes > this.limits.maxTotalUncompressedBytes) {
      throw bomb('The archive expands to more data than allowed.');
    }
  }

  checkRatio(compressedBytes: number, uncompressedBytes: number): void {
    if (uncompressedBytes <= this.limits.ratioGraceBytes) {
      return;
    }
    // An empty compressed stream cannot expand: treat it as one byte so the ratio stays finite.
    if (uncompressedBytes / Math.max(compressedBytes, 1) > this.limits.maxRatio) {
      throw bomb('An archive entry is compressed beyond the allowed ratio.');
    }
  }
}
