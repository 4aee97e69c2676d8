// The form's content rules over what the visitor sent: honeypot fields, the number of links and
// blocked words. They judge the values as received (before sanitising), where a link hidden in
// markup (`<a href="…">`) still counts.
import { createHash } from 'node:crypto';

export type SpamReason = 'honeypot' | 'captcha_unavailable' | 'links' | 'blocked_word';

export interface ContentRules {
  honeypotFields: readonly string[] | null;
  maxLinks: number | null;
  blockedWords: readonly string[] | null;
}

// http(s) URLs and "www." hosts; a bare domain name is not counted (too many false positives).
const LINK = /(?:\bhttps?:\/\/|\bwww\.)[^\s<>"']+/giu;
// What a whole word is made of; a blocked word must not be part of a longer word.
const WORD_CHARACTER = String.raw`[\p{L}\p{N}_]`;

function isFilled(value: unknown): boolean {
  if (value === undefined || value === null) {
    return false;
  }
  if (typeof value === 'string') {
    return value !== '';
  }
  if (Array.isArray(value)) {
    return value.some(isFilled);
  }
  return true;
}

/** Every string among the values, nested ones included (keys are not values). */
function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') {
    yield value;
  } else if (Array.isArray(value)) {
    for (const item of value) {
      yield* stringsOf(item);
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) {
      yield* stringsOf(item);
    }
  }
}

function countLinks(fields: Record<string, unknown>): number {
  let count = 0;
  for (const text of stringsOf(fields)) {
    count += text.match(LINK)?.length ?? 0;
  }
  return count;
}

/** One regular expression for the whole list: each phrase whole-word, its spaces matching any whitespace. */
function blockedWordPattern(words: readonly string[]): RegExp | undefined {
  const phrases = words
    .map((word) => word.trim())
    .filter((word) => word !== '')
    .map((word) =>
      word
        .split(/\s+/u)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join(String.raw`\s+`),
    );
  if (phrases.length === 0) {
    return undefined;
  }
  return new RegExp(`(?<!${WORD_CHARACTER})(?:${phrases.join('|')})(?!${WORD_CHARACTER})`, 'iu');
}

/**
 * Why the submission is spam by the form's rules, or undefined. `fileFields` are the fields files
 * were sent in: a file in a honeypot field fills it too.
 */
export function contentSpamReason(
  rules: ContentRules,
  fields: Record<string, unknown>,
  fileFields: readonly string[],
): SpamReason | undefined {
  for (const name of rules.honeypotFields ?? []) {
    if (isFilled(Object.hasOwn(fields, name) ? fields[name] : undefined) || fileFields.includes(name)) {
      return 'honeypot';
    }
  }
  if (rules.maxLinks !== null && countLinks(fields) > rules.maxLinks) {
    return 'links';
  }
  const blocked = rules.blockedWords ? blockedWordPattern(rules.blockedWords) : undefined;
  if (blocked) {
    for (const text of stringsOf(fields)) {
      if (blocked.test(text)) {
        return 'blocked_word';
      }
    }
  }
  return undefined;
}

/** JSON with object keys sorted, so the same content hashes the same whatever order it was sent in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What the duplicate filter compares: the sanitised fields and each file's field and sha256, in order. */
export function contentHash(
  data: Record<string, unknown>,
  files: readonly { field: string; sha256: string }[],
): string {
  const content = canonicalJson({ data, files: files.map((file) => [file.field, file.sha256]) });
  return createHash('sha256').update(content).digest('hex');
}
