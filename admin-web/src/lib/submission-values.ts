// A submission's values in one line for a table cell, and the columns a page of submissions gets.
// Every string is decoded once from its stored HTML-safe form (the caller renders it as text).
import { decodeStoredText } from './decode-stored-text';

const CELL_LENGTH = 80;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shorten(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** One line of text for a table cell: nested values summarised, long text cut. */
export function compactValue(value: unknown, length = CELL_LENGTH): string {
  if (value === null || value === undefined) {
    return '—';
  }
  if (typeof value === 'string') {
    return shorten(decodeStoredText(value).replace(/\s+/g, ' ').trim(), length);
  }
  if (Array.isArray(value)) {
    return shorten(value.map((item) => compactValue(item, length)).join(', '), length);
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(
      ([key, item]) => `${decodeStoredText(key)}: ${compactValue(item, length)}`,
    );
    return shorten(`{ ${entries.join(', ')} }`, length);
  }
  return String(value);
}

/**
 * Column keys for a page of submissions: the top-level keys in the order they first appear, at most
 * `limit` (the detail view shows every field).
 */
export function columnKeys(rows: readonly Record<string, unknown>[], limit = 4): string[] {
  const keys: string[] = [];
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!keys.includes(key)) {
        keys.push(key);
        if (keys.length === limit) {
          return keys;
        }
      }
    }
  }
  return keys;
}
