// The name of a ZIP entry, validated from its RAW bytes: the path rules, the UTF-8 flag, and the
// Info-ZIP Unicode Path extra field (0x7075), which many extractors prefer over the raw name and so
// must not say something else than the name we checked.
import { crc32 } from 'node:zlib';
import { AppError } from '@intake/shared/errors';
import type { ExtraField } from 'yauzl';
import yauzl from 'yauzl';
import { checkEntryPath } from './entry-rules.js';

const UTF8_FLAG = 0x800;
const UNICODE_PATH_FIELD = 0x7075;
const BACKSLASH = 0x5c;

function unsafePath(): AppError {
  return new AppError('archive_path_traversal', 'An archive entry has an unsafe path.');
}

function decodeUtf8Strict(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Invalid or overlong UTF-8 (`C0 AE` for `.`) decodes differently from one extractor to another.
    throw unsafePath();
  }
}

function isAscii(bytes: Uint8Array): boolean {
  return bytes.every((byte) => byte < 0x80);
}

function shape(name: string): string {
  return `${name.split('/').length}:${name.endsWith('/')}`;
}

/** The 0x7075 name, or null; throws when it is malformed or disagrees with the raw name. */
function unicodePathName(raw: Buffer, extraFields: readonly ExtraField[]): string | null {
  const fields = extraFields.filter((field) => field.id === UNICODE_PATH_FIELD);
  if (fields.length === 0) {
    return null;
  }
  const field = fields[0];
  if (fields.length > 1 || field === undefined || field.data.length < 5 || field.data[0] !== 1) {
    throw unsafePath();
  }
  // The field names the raw name it translates by CRC; a stale or forged one is refused rather than
  // ignored, since extractors disagree on whether to honour it.
  if (field.data.readUInt32LE(1) !== crc32(raw)) {
    throw unsafePath();
  }
  const unicode = decodeUtf8Strict(field.data.subarray(5));
  checkEntryPath(unicode);
  // An ASCII raw name needs no translation: any difference is a second, hidden name. A non-ASCII
  // raw name in a legacy code page legitimately reads differently, but must keep its structure.
  if (isAscii(raw) ? unicode !== raw.toString('latin1') : shape(unicode) !== shape(raw.toString('latin1'))) {
    throw unsafePath();
  }
  return unicode;
}

/**
 * Validates an entry's raw name (and its 0x7075 field) and returns every reading of it that an
 * extractor might use, for the name-based rules. Throws `archive_path_traversal`.
 */
export function readEntryNames(raw: Buffer, flags: number, extraFields: readonly ExtraField[]): string[] {
  const legacyCodePage = (flags & UTF8_FLAG) === 0;
  checkEntryPath(raw, { legacyCodePage });
  if (legacyCodePage && raw.includes(BACKSLASH)) {
    // Only Shift-JIS or GBK trail bytes get here (checkEntryPath): the name a Japanese or Chinese
    // system reads, and the one a CP437 extractor makes of it, with the byte as a separator.
    const names = [doubleByteName(raw), cp437Name(flags, raw).replaceAll('\\', '/')];
    names.forEach((name) => checkEntryPath(name));
    const unicode = unicodePathName(raw, extraFields);
    return unicode === null ? names : [...names, unicode];
  }
  // Without the UTF-8 flag the spec says CP437; yauzl decodes that (no extra fields: see below).
  const decoded = legacyCodePage ? cp437Name(flags, raw) : decodeUtf8Strict(raw);
  checkEntryPath(decoded);
  const unicode = unicodePathName(raw, extraFields);
  return unicode === null || unicode === decoded ? [decoded] : [decoded, unicode];
}

function cp437Name(flags: number, raw: Buffer): string {
  return yauzl.getFileNameLowLevel(flags, raw, [], true);
}

/** The first of Shift-JIS and GBK that reads the name without a backslash. */
function doubleByteName(raw: Buffer): string {
  for (const encoding of ['shift_jis', 'gbk']) {
    const name = new TextDecoder(encoding).decode(raw);
    if (!name.includes('\\')) {
      checkEntryPath(name);
      return name;
    }
  }
  throw unsafePath();
}
