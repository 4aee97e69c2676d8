// Submitted text is stored HTML-safe: the gateway's sanitiser keeps text only and serialises it as
// HTML does text outside script and style, escaping `&`, `<`, `>` and U+00A0, and, in values and file
// names, the quotes (`&quot;`, `&#39;`). decodeStoredText owns the way back, stored text to typed text:
// every reader that shows, exports or mails text as it was sent (file names, CSV cells, notification
// e-mails) decodes it once with it. Search and erasure compare in SQL, through the database's copy of
// it, intake_stored_text (migration stored_text_search; stored-text-sql.test.ts holds them equal).

/** Plain text in its stored form (`Tom & Jerry` → `Tom &amp; Jerry`); `&` first, so nothing is escaped twice. */
export function escapeStoredText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('\u00A0', '&nbsp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

// The character references the gateway writes when it stores a value or a file name.
const STORED_REFERENCES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': '\u00A0',
};

const STORED_REFERENCE = /&(?:amp|lt|gt|quot|#39|nbsp);/g;

/** A stored string as it was sent, decoded once: `&amp;lt;` is `&lt;` (what was sent), never `<`. */
export function decodeStoredText(stored: string): string {
  return stored.includes('&') ? stored.replace(STORED_REFERENCE, (reference) => STORED_REFERENCES[reference]!) : stored;
}
