// `Content-Disposition: attachment` for a stored file's original name: a plain ASCII fallback (no
// quote, backslash, percent or control character can break out of the quoted string or the header)
// and the exact name in RFC 5987 `filename*` form for clients that read it.
const NOT_SAFE_ASCII = /[^\x20-\x7e]|["\\%]/g;
const COMBINING_MARKS = /[\u0300-\u036f]/g;
const NOT_ATTR_CHAR = /['()*]/g;
const FALLBACK_MAX_LENGTH = 150;

export function contentDisposition(fileName: string): string {
  const name = fileName.toWellFormed() || 'download';
  const fallback =
    name
      .normalize('NFKD')
      .replace(COMBINING_MARKS, '')
      .replace(NOT_SAFE_ASCII, '_')
      .trim()
      .slice(0, FALLBACK_MAX_LENGTH) || 'download';
  // encodeURIComponent leaves ' ( ) * alone; RFC 5987's attr-char does not allow them.
  const encoded = encodeURIComponent(name).replace(
    NOT_ATTR_CHAR,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

// The character references the gateway writes when it stores a file name (escaped as values are).
const STORED_REFERENCES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': '\u00A0',
};

/** A stored (HTML-escaped) file name decoded once, as it was sent: the name a download is saved as. */
export function storedNameAsSent(stored: string): string {
  return stored.replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (reference) => STORED_REFERENCES[reference]!);
}
