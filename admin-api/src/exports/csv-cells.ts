// How a CSV export's cells are written so that no spreadsheet reads one as a formula, whatever the
// list separator of the locale that opens the file. Written here rather than with csv-stringify's
// `escape_formulas`, which looks at the first character only, where spreadsheets look past spaces,
// invisible characters and line breaks (docs/decisions/csv-formula-cells.md). A cell is cut into
// segments at `;`, tab, CR and LF, where a `;` or tab locale starts a new cell even inside quotes, and
// a segment that would start a formula gets a `'` (OWASP's check, extended), as does one sent with
// leading apostrophes before such a start, so a cell reads back exactly. The rule, what it leaves
// alone, and how to read a cell back: docs/admin-api.md ("Formula cells in a CSV export").

/** The character put before a neutralised segment. */
export const FORMULA_PREFIX = "'";

// Whitespace (spaces of every width, U+00A0), control characters, and format characters
// (zero-width space and joiners, U+FEFF, U+2060, soft hyphen, bidi marks).
const LEADING_IGNORED = /^[\p{White_Space}\p{Cc}\p{Cf}]+/u;
const LEADING_APOSTROPHES = /^'+/;
const FORMULA_STARTS = new Set(['=', '+', '-', '@']);
// Where a spreadsheet of some locale starts a new cell or row inside one of ours (a capture group,
// so that splitting keeps them).
const SEGMENT_SEPARATORS = /(\r\n|[;\t\r\n])/;
const HAS_SEGMENT_SEPARATOR = /[;\t\r\n]/;
const STARTS_WITH_BREAK = /^'*[\t\r\n]/;

/** Printable ASCII other than the formula characters and `'`: a cell starting so needs no closer look. */
function isPlainStart(code: number): boolean {
  return (
    code > 0x20 && code < 0x7f && code !== 0x27 && code !== 0x3d && code !== 0x2b && code !== 0x2d && code !== 0x40
  );
}

/** True when a spreadsheet would read a cell holding this text as a formula (or a DDE call). */
function looksLikeFormula(text: string): boolean {
  const first = text.replace(LEADING_IGNORED, '').codePointAt(0);
  if (first === undefined) {
    return false;
  }
  return FORMULA_STARTS.has(String.fromCodePoint(first).normalize('NFKC').charAt(0));
}

function needsPrefix(segment: string): boolean {
  return looksLikeFormula(segment.replace(LEADING_APOSTROPHES, ''));
}

/** The text as CSV cell text: a `'` at the start of each segment that a spreadsheet could evaluate. */
export function neutraliseFormula(text: string): string {
  // Most cells start with a letter or a digit and hold no separator: nothing to split.
  if (text === '' || (isPlainStart(text.charCodeAt(0)) && !HAS_SEGMENT_SEPARATOR.test(text))) {
    return text;
  }
  const parts = text.split(SEGMENT_SEPARATORS);
  // Even indexes are segments, odd ones the separators between them.
  return parts
    .map((part, index) => {
      if (index % 2 === 1) {
        return part;
      }
      const prefixed = needsPrefix(part) || (index === 0 && STARTS_WITH_BREAK.test(text));
      return prefixed ? `${FORMULA_PREFIX}${part}` : part;
    })
    .join('');
}

/**
 * Cells holding a list separator of another locale: `;` and a tab. csv-stringify quotes those
 * holding its own `,`, a quote or a line break; quoted, they stay one cell for every reader that
 * honours quotes (an import that lets the user pick the separator, LibreOffice, parsers).
 */
export const OTHER_LOCALE_SEPARATORS = /[;\t]/;
