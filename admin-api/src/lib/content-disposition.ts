// `Content-Disposition: attachment` for a stored file's original name, through Koa's
// `ctx.attachment()` (the `content-disposition` package): the exact name in RFC 5987 `filename*`
// form, and our own plain ASCII fallback for clients that only read `filename` (no quote,
// backslash, percent or control character, accents folded rather than turned into `?`).
import type { Context } from 'koa';
import { decodeStoredText } from '@intake/shared/stored-text';

const NOT_SAFE_ASCII = /[^\x20-\x7e]|["\\%]/g;
const COMBINING_MARKS = /[\u0300-\u036f]/g;
const FALLBACK_MAX_LENGTH = 150;

/** The name a download is saved as (well-formed, never empty) and its ASCII fallback. */
export function downloadNames(fileName: string): { name: string; fallback: string } {
  // A lone surrogate cannot be percent-encoded: it becomes U+FFFD.
  const name = fileName.toWellFormed() || 'download';
  const fallback =
    name
      .normalize('NFKD')
      .replace(COMBINING_MARKS, '')
      .replace(NOT_SAFE_ASCII, '_')
      .trim()
      .slice(0, FALLBACK_MAX_LENGTH) || 'download';
  return { name, fallback };
}

/** Answers as a download saved as `fileName` (sets Content-Disposition, and a Content-Type from its extension). */
export function setDownloadName(ctx: Pick<Context, 'attachment'>, fileName: string): void {
  const { name, fallback } = downloadNames(fileName);
  ctx.attachment(name, { fallback });
}

/** Answers as a download of the stored file named `storedName` (as the gateway stored it). */
export function setAttachment(ctx: Pick<Context, 'attachment'>, storedName: string): void {
  setDownloadName(ctx, storedNameAsSent(storedName));
}

/** A stored (HTML-escaped) file name decoded once, as it was sent: the name a download is saved as. */
export function storedNameAsSent(stored: string): string {
  return decodeStoredText(stored);
}
