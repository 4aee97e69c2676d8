// Where a ZIP's entries sit in the file. yauzl trusts the central directory; so do we, but an
// attacker's archive may use it to lie: entries that share bytes (David Fifield's "better zip bomb"
// expands one kernel through thousands of overlapping entries), or bytes that no central entry
// covers (a hidden local entry that a streaming extractor would write but we would never read).
import { AppError } from '@intake/shared/errors';

/**
 * Largest data descriptor: signature, CRC and two 8-byte ZIP64 sizes. Fewer bytes than the
 * smallest local header (30), so the slack we allow cannot hide an entry.
 */
const MAX_DATA_DESCRIPTOR_BYTES = 24;

export interface EntryExtent {
  /** Offset of the local file header. */
  start: number;
  /** Offset just past the compressed data (local header, name and extra field included). */
  end: number;
  /** General purpose bit 3: a data descriptor of up to 24 bytes may follow the data. */
  hasDataDescriptor: boolean;
}

function overlap(): AppError {
  return new AppError('archive_bomb', 'Archive entries overlap.');
}

function hiddenData(): AppError {
  return new AppError('archive_unreadable', 'The archive holds data outside its directory.');
}

function checkGap(gap: number, previous: EntryExtent | undefined): void {
  if (gap < 0) {
    throw overlap();
  }
  const allowed = previous?.hasDataDescriptor === true ? MAX_DATA_DESCRIPTOR_BYTES : 0;
  if (gap > allowed) {
    throw hiddenData();
  }
}

/**
 * Throws `archive_bomb` when two entries (or an entry and the central directory) share bytes, and
 * `archive_unreadable` when bytes before, between or after the entries belong to none of them.
 * `centralDirectoryOffset` null skips the last check (the reader did not tell us where it is).
 */
export function checkLayout(extents: readonly EntryExtent[], centralDirectoryOffset: number | null): void {
  const sorted = [...extents].sort((a, b) => a.start - b.start);
  let previous: EntryExtent | undefined;
  let cursor = 0;
  for (const extent of sorted) {
    checkGap(extent.start - cursor, previous);
    previous = extent;
    cursor = extent.end;
  }
  if (centralDirectoryOffset !== null) {
    checkGap(centralDirectoryOffset - cursor, previous);
  }
}
