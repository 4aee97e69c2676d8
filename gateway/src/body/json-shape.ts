import { AppError } from '@intake/shared/errors';
import { MAX_DEPTH } from '../submission/validate-body.js';
import { MAX_FIELDS } from './limits.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * The index of the quote that closes the string opened at `open` (or the text's end): found with
 * indexOf, a quote preceded by an odd number of backslashes being escaped. A megabyte-long string
 * costs one native search instead of a character-by-character walk.
 */
function endOfString(text: string, open: number): number {
  for (let from = open + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) {
      return text.length;
    }
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) {
      backslashes++;
    }
    if (backslashes % 2 === 0) {
      return quote;
    }
    from = quote + 1;
  }
}

/**
 * Counts the keys and array items of a JSON text, across the whole body, and its nesting, before
 * JSON.parse builds anything: a body of a million keys or items is refused after reading it once,
 * instead of being built (and blocking the event loop) only to be refused. No JSON parser exposes
 * these counts without building the values, so this is one linear pass over the characters; it
 * does not validate the JSON (JSON.parse does that next), it only bounds the work.
 */
export function checkJsonShape(text: string): void {
  // One entry per open container: true for an array. `arrayEmpty` tells whether the innermost
  // array has had its first item yet (the items of an array are its commas plus one).
  const arrays: boolean[] = [];
  let arrayEmpty = false;
  let entries = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isWhitespace(code)) {
      continue;
    }
    const inArray = arrays.length > 0 && arrays[arrays.length - 1];
    if (inArray && arrayEmpty && code !== CLOSE_ARRAY) {
      // The first item of an array.
      arrayEmpty = false;
      entries++;
    }
    if (code === QUOTE) {
      // Skipped whole: nothing inside a string is a key or an item.
      index = endOfString(text, index);
    } else if (code === COLON || (code === COMMA && inArray)) {
      // A key (each key has its colon), or a further array item.
      entries++;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      arrays.push(code === OPEN_ARRAY);
      arrayEmpty = code === OPEN_ARRAY;
      if (arrays.length > MAX_DEPTH) {
        throw new AppError('body_invalid', `The body is nested deeper than ${MAX_DEPTH} levels.`);
      }
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      arrays.pop();
      arrayEmpty = false;
    }
    if (entries > MAX_FIELDS) {
      throw new AppError('payload_too_large', `More than ${MAX_FIELDS} keys and array items in the body.`);
    }
  }
}
