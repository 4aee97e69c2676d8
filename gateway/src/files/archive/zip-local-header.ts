// A ZIP entry is described twice: in the central directory (what yauzl and we read) and in its
// local header (what streaming extractors read). Where the two disagree, two programs see two
// different archives, and our verdict covers only one of them.
import { AppError } from '@intake/shared/errors';
import type { Entry, LocalFileHeader } from 'yauzl';
import yauzl from 'yauzl';
import { readEntryNames } from './zip-entry-name.js';

const ENCRYPTED_FLAG = 0x1;
const DATA_DESCRIPTOR_FLAG = 0x8;
/** A 32-bit size or CRC field of this value defers to a ZIP64 extra field. */
const ZIP64_MARKER = 0xffffffff;

function disagree(): AppError {
  return new AppError('archive_bomb', 'The archive describes an entry in two different ways.');
}

function sameOrDeferred(local: number, central: number): boolean {
  return local === central || local === ZIP64_MARKER;
}

/** Throws unless the local header tells the same story as the central directory entry. */
export function checkLocalHeader(entry: Entry, local: LocalFileHeader): void {
  // The local name passes the same path rules, so an unsafe name is reported as such first.
  readEntryNames(local.fileName, local.generalPurposeBitFlag, yauzl.parseExtraFields(local.extraField));
  if (!local.fileName.equals(entry.fileNameRaw)) {
    throw disagree();
  }
  if ((local.generalPurposeBitFlag & ENCRYPTED_FLAG) !== 0) {
    throw new AppError('archive_unreadable', 'An archive entry is encrypted and cannot be inspected.');
  }
  if (local.compressionMethod !== entry.compressionMethod) {
    throw disagree();
  }
  // With a data descriptor the local sizes and CRC are legitimately zero; otherwise they must match.
  if ((local.generalPurposeBitFlag & DATA_DESCRIPTOR_FLAG) === 0) {
    if (
      local.crc32 !== entry.crc32 ||
      !sameOrDeferred(local.compressedSize, entry.compressedSize) ||
      !sameOrDeferred(local.uncompressedSize, entry.uncompressedSize)
    ) {
      throw disagree();
    }
  }
}
