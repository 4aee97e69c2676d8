// XSS sanitisation of stored text (docs/intake-api.md): submitted values in the gateway, a submission's
// internal notes in the admin API. No markup survives, the stored string is the
// HTML-escaped text DOMPurify serialises, and a string with none of < > & " ' is stored unchanged.
//
// Quotes: DOMPurify's serialisation escapes `& < >` (and U+00A0 as `&nbsp;`) in text but not quotes; we
// also escape `"` as `&quot;` and `'` as `&#39;`, so a stored value is inert as element content and
// inside a quoted attribute alike. sanitizeString of a stored value returns it unchanged.
import { fieldPath, type FieldPathSegment } from '../field-path/index.js';
import { escapeStoredText } from '../stored-text/index.js';
import { purifyToText, purifyUpTo } from './purify-text.js';

export { purifyToText, purifyUpTo };

const HTML_SPECIAL = /[<>&"']/;

// Text parses to itself, line breaks aside (the HTML input stream turns CR LF and CR into LF), unless it
// holds what the tokenizer treats specially: `<` before a letter, `!`, `/` or `?` (a tag, a comment, an
// end tag, a bogus comment), `&` before an alphanumeric or `#` (a possible character reference), or
// U+0000. Any other `<` (`a < b`, `I <3 it`, one at the end) is a literal character, so the
// serialisation of such text is known without running a parser (sanitize.test.ts checks it against
// DOMPurify on generated strings).
const NEEDS_PARSER = /<[!/?A-Za-z]|&[#0-9A-Za-z]|\u0000/;

/** Whether `s` must go through the parser (exported for the property test). */
export function needsParser(s: string): boolean {
  return NEEDS_PARSER.test(s);
}

// The HTML parser can be driven to build a number of elements quadratic in the input (formatting
// elements reconstructed in every block, adoption-agency clones, deep nesting) and jsdom spends tens of
// µs per element: one 10 KB string could hold the event loop for minutes. Each parse is priced at
// 1 + tags × (1 + formatting start tags), the second factor bounding what the parser can clone per
// tag. A string over its own bound, or over what is left of the budget of the value it belongs to (one
// submission), is serialised as plain text instead: just as inert, its tags shown as text.
export const MAX_MARKUP_TAGS = 512;
export const MAX_MARKUP_COST = 4096;
export const MAX_VALUE_MARKUP_COST = 16_384;
const FORMATTING_START_TAG = /<(?:a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u)(?=[\s/>])/gi;

interface Budget {
  remaining: number;
}

function parseCost(s: string): number {
  let tags = 0;
  for (let at = s.indexOf('<'); at !== -1; at = s.indexOf('<', at + 1)) {
    tags += 1;
  }
  if (tags > MAX_MARKUP_TAGS) {
    return Number.POSITIVE_INFINITY;
  }
  const formatting = tags === 0 ? 0 : (s.match(FORMATTING_START_TAG)?.length ?? 0);
  return 1 + tags * (1 + formatting);
}

/** The HTML serialisation of `s` taken as literal text (what the parser path yields for plain text). */
function serializeAsText(s: string): string {
  return escapeStoredText(s.replace(/\r\n?/g, '\n'));
}

function escapeQuotes(s: string): string {
  return s.replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/**
 * `s` taken as literal text, stored the way a sanitised value is: HTML-escaped (`& < > " '`), so it
 * is inert wherever a stored value is. For text whose markup is data, such as a file's name.
 */
export function escapeAsText(s: string): string {
  return HTML_SPECIAL.test(s) || s.includes('\u00A0') ? escapeQuotes(serializeAsText(s)) : s;
}

/** `s` escaped as text, nothing removed: what the sanitiser stores for a string it does not parse. */
function escapedOnly(s: string): string {
  // U+0000 is dropped as the parser would; validateSubmissionBody refuses it before this anyway.
  return escapeQuotes(serializeAsText(s.replaceAll('\u0000', '')));
}

function sanitizeWithin(s: string, budget: Budget): string {
  if (!HTML_SPECIAL.test(s)) {
    return s;
  }
  if (!NEEDS_PARSER.test(s)) {
    return escapeQuotes(serializeAsText(s));
  }
  const cost = parseCost(s);
  if (cost > MAX_MARKUP_COST || cost > budget.remaining) {
    return escapedOnly(s);
  }
  budget.remaining -= cost;
  return escapeQuotes(purifyToText(s));
}

/** Sanitise one submitted string (see the contract summary at the top of this file). */
export function sanitizeString(s: string): string {
  return sanitizeWithin(s, { remaining: MAX_MARKUP_COST });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function sanitizeNested(value: unknown, budget: Budget): unknown {
  if (typeof value === 'string') {
    return sanitizeWithin(value, budget);
  }
  if (Array.isArray(value)) {
    return value.map((item) => sanitizeNested(item, budget));
  }
  if (isPlainObject(value)) {
    // fromEntries defines own properties, so a `__proto__` key can never become a prototype.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sanitizeNested(item, budget)]));
  }
  return value;
}

function costWithin(value: unknown, budget: Budget): void {
  if (typeof value === 'string') {
    if (HTML_SPECIAL.test(value) && NEEDS_PARSER.test(value)) {
      const cost = parseCost(value);
      // What sanitizeWithin would hand to the parser: a string over its own bound or the budget is not.
      if (cost <= MAX_MARKUP_COST && cost <= budget.remaining) {
        budget.remaining -= cost;
      }
    }
  } else if (Array.isArray(value)) {
    for (const item of value) {
      costWithin(item, budget);
    }
  } else if (isPlainObject(value)) {
    for (const item of Object.values(value)) {
      costWithin(item, budget);
    }
  }
}

/**
 * The parse cost sanitizeValue will spend on `value` (0 when none of its strings needs the parser),
 * without parsing: what sanitize-pool.ts decides by. At most MAX_VALUE_MARKUP_COST.
 */
export function markupCost(value: unknown): number {
  const budget = { remaining: MAX_VALUE_MARKUP_COST };
  costWithin(value, budget);
  return MAX_VALUE_MARKUP_COST - budget.remaining;
}

/**
 * Sanitise a submitted value: strings in arrays and plain objects at any depth are sanitised, keys
 * are kept as sent, and every other value (numbers, booleans, null) is returned as it is. All its
 * strings share one parse budget (MAX_VALUE_MARKUP_COST). Meant to run after validateSubmissionBody,
 * which bounds the depth of this recursion.
 */
export function sanitizeValue(value: unknown): unknown {
  return sanitizeNested(value, { remaining: MAX_VALUE_MARKUP_COST });
}

/** A submission's sanitised value and where the sanitiser changed more than the escaping. */
export interface SanitizedSubmission {
  value: unknown;
  /**
   * The JSON paths (`message`, `items[2]`, `contact.note`) of the strings whose stored text, read back,
   * differs from what was sent: markup removed, or a character reference read as its character. Only
   * escaping (and CR LF → LF) is not a change. In the order met.
   */
  sanitizedFields: string[];
}

/** Appends the path of every string of `sent` whose sanitised form is more than its escaping. */
function collectChanges(sent: unknown, stored: unknown, path: FieldPathSegment[], changed: string[]): void {
  if (typeof sent === 'string') {
    // Text without < > & " ' is stored as sent; any other is a change unless it is its escaping.
    if (HTML_SPECIAL.test(sent) && stored !== escapedOnly(sent)) {
      changed.push(fieldPath(path));
    }
  } else if (Array.isArray(sent)) {
    const storedItems = stored as unknown[];
    sent.forEach((item, index) => {
      path.push(index);
      collectChanges(item, storedItems[index], path, changed);
      path.pop();
    });
  } else if (isPlainObject(sent)) {
    const storedFields = stored as Record<string, unknown>;
    for (const [key, item] of Object.entries(sent)) {
      path.push(key);
      collectChanges(item, storedFields[key], path, changed);
      path.pop();
    }
  }
}

/**
 * sanitizeValue, telling which strings lost markup. Only a string the parser saw can have changed,
 * so the comparison walk runs only when the parser ran: plain text costs nothing more.
 */
export function sanitizeSubmission(value: unknown): SanitizedSubmission {
  const budget = { remaining: MAX_VALUE_MARKUP_COST };
  const sanitized = sanitizeNested(value, budget);
  const sanitizedFields: string[] = [];
  if (budget.remaining < MAX_VALUE_MARKUP_COST) {
    collectChanges(value, sanitized, [], sanitizedFields);
  }
  return { value: sanitized, sanitizedFields };
}
