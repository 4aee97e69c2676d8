// Text from the API is stored HTML-safe: the gateway's sanitiser keeps text only and escapes `&`, `<`,
// `>` and U+00A0 (`Tom &amp; Jerry`). The console renders values as React text (which escapes again),
// so each value is decoded once, here, before it is shown.
//
// A small decoder rather than DOMParser: it reads exactly the escapes the server writes (plus the
// usual quote and numeric forms), never builds a document, keeps leading white space (an HTML parser
// drops it), and runs in Node for its unit test. Anything else stays as it is: decoding once means
// `&amp;lt;` shows as `&lt;`, not `<`.
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00A0',
};

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g;

function fromCodePoint(codePoint: number, original: string): string {
  // Surrogates, NUL and anything past U+10FFFF are not characters: keep the entity as written.
  if (codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
    return original;
  }
  return String.fromCodePoint(codePoint);
}

/** The text a person typed, from its stored HTML-safe form; null and undefined become ''. */
export function decodeStoredText(value: string | null | undefined): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (!value.includes('&')) {
    return value;
  }
  return value.replace(ENTITY, (entity, decimal?: string, hex?: string, name?: string) => {
    if (decimal !== undefined) {
      return fromCodePoint(Number.parseInt(decimal, 10), entity);
    }
    if (hex !== undefined) {
      return fromCodePoint(Number.parseInt(hex, 16), entity);
    }
    return (name !== undefined && Object.hasOwn(NAMED, name) ? NAMED[name] : undefined) ?? entity;
  });
}
