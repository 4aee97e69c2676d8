// RAR 4.x file headers, read for the one thing 7-Zip's listing leaves out: the Unix mode of an
// entry archived on a Unix host. 7-Zip lists such an entry with empty attributes (its RAR 4 reader
// keeps Windows attributes only), so a symlink there looks like a small text file holding the
// link's target, and an extractor that honours the mode (unrar, libarchive) makes it a link.
// Layout from the RAR 4.x technical note: a 7-byte marker, then blocks of `HEAD_CRC u16`,
// `HEAD_TYPE u8`, `HEAD_FLAGS u16`, `HEAD_SIZE u16`, with `ADD_SIZE u32` (the data that follows the
// header) when the long-block flag is set; a file header holds `HOST_OS` at byte 15 and `ATTR` at
// byte 28. Written here because no maintained JavaScript RAR reader exposes the raw mode bits.
import { AppError } from '@intake/shared/errors';
import { checkNotSymlink, isUnixSymlinkMode } from './entry-rules.js';

const MARKER = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00]);
const FILE_HEADER = 0x74;
const END_OF_ARCHIVE = 0x7b;
const LONG_BLOCK = 0x8000;
/** A file header with 64-bit sizes: the high half of PACK_SIZE sits at byte 32. */
const LARGE_FILE = 0x0100;
const HOST_UNIX = 3;
const MIN_FILE_HEADER = 32;

function unreadable(): AppError {
  return new AppError('archive_unreadable', 'The archive cannot be read to the end.');
}

/**
 * Throws `archive_path_traversal` when a file header of the RAR 4.x archive `bytes` comes from a
 * Unix host with a symlink mode (S_IFLNK), `archive_unreadable` when the headers do not chain up.
 * 7-Zip has already listed and judged the archive; this walk only adds the modes it leaves out.
 */
export function checkRar4UnixLinks(bytes: Uint8Array): void {
  const archive = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!archive.subarray(0, MARKER.length).equals(MARKER)) {
    throw unreadable();
  }
  let offset = MARKER.length;
  while (offset + 7 <= archive.length) {
    const type = archive[offset + 2];
    const flags = archive.readUInt16LE(offset + 3);
    const headerSize = archive.readUInt16LE(offset + 5);
    if (headerSize < 7 || offset + headerSize > archive.length) {
      throw unreadable();
    }
    if (type === END_OF_ARCHIVE) {
      return;
    }
    let dataSize = 0;
    if ((flags & LONG_BLOCK) !== 0) {
      if (headerSize < 11) {
        throw unreadable();
      }
      dataSize = archive.readUInt32LE(offset + 7);
    }
    if (type === FILE_HEADER) {
      if (headerSize < MIN_FILE_HEADER) {
        throw unreadable();
      }
      if ((flags & LARGE_FILE) !== 0 && headerSize >= 36) {
        dataSize += archive.readUInt32LE(offset + 32) * 2 ** 32;
      }
      const hostOs = archive[offset + 15];
      const attributes = archive.readUInt32LE(offset + 28);
      checkNotSymlink(hostOs === HOST_UNIX && isUnixSymlinkMode(attributes));
    }
    offset += headerSize + dataSize;
  }
}
