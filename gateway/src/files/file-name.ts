// A file's original name is kept as data only (docs/intake-api.md): it never becomes a path. These
// helpers refuse names that can only come from a malformed request, clean the rest for display, and
// take the extension that the type check judges.
import { AppError } from '@intake/shared/errors';
import { escapeAsText } from '../submission/sanitize.js';

/** The longest stored name, in UTF-8 bytes (what most file systems allow for one name). */
export const MAX_FILE_NAME_BYTES = 255;

/** The name stored when nothing is left after cleaning. */
export const FALLBACK_FILE_NAME = 'file';

// C0 controls (NUL included), DEL and C1 controls.
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/u;
const CONTROL_ALL = /[\u0000-\u001F\u007F-\u009F]/gu;
// Bidirectional marks, embeddings, overrides and isolates: `invoice\u202Efdp.exe` shows as
// `invoiceexe.pdf`. Also the Unicode line and paragraph separators, which break log lines.
const BIDI_AND_LINE_BREAKS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/gu;
const PATH_SEPARATORS = /[/\\]/u;
// Windows drops trailing dots and spaces, so `report.pdf. ` opens as `report.pdf`.
const TRAILING_DOTS_AND_SPACES = /[.\s]+$/u;
// An extension longer than this is not kept whole when a long name is cut (none we know is).
const MAX_KEPT_EXTENSION_BYTES = 32;

/**
 * Refuses a name holding NUL or another control character (C0, DEL, C1): no client sends one for a
 * real file, so the request is malformed (`body_invalid`). The detail never echoes the name.
 *
 * Caution for multipart: multer decodes names as latin1 unless `defParamCharset: 'utf8'` is set,
 * and UTF-8 bytes 0x80–0x9F then read as C1 controls — a name like `€.pdf` would be refused.
 */
export function assertSafeFileName(raw: string): void {
  if (CONTROL.test(raw)) {
    throw new AppError('body_invalid', 'A file name holds NUL or a control character.');
  }
}

/**
 * The name to store: last path segment (a browser may send `C:\Users\me\report.pdf`), without
 * control, bidirectional or line-separator characters, trimmed, without trailing dots and spaces,
 * HTML-escaped as stored values are (`a<b>.pdf` is stored `a&lt;b&gt;.pdf`: shown decoded once, it
 * reads as sent and opens no element), cut to 255 UTF-8 bytes (escaped) on a code point boundary
 * of the name, keeping the extension when it can.
 */
export function cleanFileName(raw: string): string {
  const visible = raw.toWellFormed().replace(CONTROL_ALL, '').replace(BIDI_AND_LINE_BREAKS, '');
  const segments = visible
    .split(PATH_SEPARATORS)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== '');
  const last = (segments.at(-1) ?? '').replace(TRAILING_DOTS_AND_SPACES, '');
  if (last === '') {
    return FALLBACK_FILE_NAME;
  }
  // Cut before escaping, so no character reference is cut in half. Escaping may lengthen the name:
  // cut again, by at least a sixth of the overflow (no reference is longer than `&quot;`) and at
  // least one byte, until it fits (at most 255 rounds over 255 bytes).
  let cut = cutFileName(last, MAX_FILE_NAME_BYTES);
  let stored = escapeAsText(cut);
  for (let bytes = Buffer.byteLength(stored, 'utf8'); bytes > MAX_FILE_NAME_BYTES;) {
    const shorter = Math.max(1, Math.floor((bytes - MAX_FILE_NAME_BYTES) / 6));
    cut = cutFileName(cut, Buffer.byteLength(cut, 'utf8') - shorter);
    stored = escapeAsText(cut);
    bytes = Buffer.byteLength(stored, 'utf8');
  }
  return stored === '' ? FALLBACK_FILE_NAME : stored;
}

/**
 * The last extension, lower case, without the dot: `report.PDF. ` → `pdf`, `a.tar.gz` → `gz`,
 * `invoice.pdf.exe` → `exe`, `README` → ''.
 */
export function extensionOf(name: string): string {
  const base = (name.split(PATH_SEPARATORS).at(-1) ?? '').replace(TRAILING_DOTS_AND_SPACES, '');
  const dot = base.lastIndexOf('.');
  if (dot < 0) {
    return '';
  }
  // ASCII-only lower-casing: a Kelvin sign (U+212A) must not turn into `k`.
  return base.slice(dot + 1).replace(/[A-Z]/gu, (letter) => letter.toLowerCase());
}

/** Cuts a name to `maxBytes` UTF-8 bytes, keeping a short extension whole. */
export function cutFileName(name: string, maxBytes: number): string {
  if (Buffer.byteLength(name, 'utf8') <= maxBytes) {
    return name;
  }
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot) : '';
  const extensionBytes = Buffer.byteLength(extension, 'utf8');
  if (extension !== '' && extensionBytes <= MAX_KEPT_EXTENSION_BYTES) {
    return cutToUtf8Bytes(name.slice(0, dot), maxBytes - extensionBytes) + extension;
  }
  return cutToUtf8Bytes(name, maxBytes);
}

/** The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes, never splitting a code point. */
export function cutToUtf8Bytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Length(char.codePointAt(0) ?? 0);
    if (bytes + size > maxBytes) {
      break;
    }
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) {
    return 1;
  }
  if (codePoint < 0x800) {
    return 2;
  }
  if (codePoint < 0x10000) {
    return 3;
  }
  return 4;
}
