// The form's content rules over what the visitor sent: honeypot fields, the number of links and
// blocked words. They judge the values as received (before sanitising), where a link hidden in
// markup (`<a href="…">`) still counts.
import { createHash } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { phraseMatcher, type PhraseMatcher } from './phrase-matcher.js';

export type SpamReason =
  | 'honeypot'
  | 'captcha_unavailable'
  | 'links'
  | 'blocked_word'
  // A browser post to a form whose challenge is recorded only (docs/static-sites.md).
  | 'challenge_missing'
  | 'challenge_invalid';

export interface ContentRules {
  honeypotFields: readonly string[] | null;
  maxLinks: number | null;
  blockedWords: readonly string[] | null;
}

// http(s) URLs and "www." hosts; a bare domain name is not counted (too many false positives).
const LINK = /(?:\bhttps?:\/\/|\bwww\.)[^\s<>"']+/giu;

/** Filled: a non-empty string, any number or boolean, or a list or object holding one. */
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
  if (typeof value === 'object') {
    return Object.values(value).some(isFilled);
  }
  return true;
}

/**
 * The levels a bracket name (PHP style) is nested into by the urlencoded and multipart parsers
 * (append-field's rules): `contact[website]` is contact → website, `tags[]` the list under tags,
 * `a[0]` its first item. Undefined for a name they keep whole.
 */
function bracketPath(name: string): string[] | undefined {
  const first = /^[^[]*/.exec(name)![0];
  if (first === '' || first === name) {
    return undefined;
  }
  const brackets = name.slice(first.length).replace(/\[\]$/, '');
  const segments = [...brackets.matchAll(/\[([^\]]+)\]/g)].map((match) => match[1]!);
  return segments.map((segment) => `[${segment}]`).join('') === brackets ? [first, ...segments] : undefined;
}

/**
 * A honeypot field's value as the form sent it: under its name as it is (JSON keeps it whole),
 * and nested along its brackets (urlencoded and multipart nest it; a backend may forward it so).
 */
function honeypotValues(fields: Record<string, unknown>, name: string): unknown[] {
  const values = [Object.hasOwn(fields, name) ? fields[name] : undefined];
  let nested: unknown = fields;
  for (const segment of bracketPath(name) ?? []) {
    nested =
      typeof nested === 'object' && nested !== null && Object.hasOwn(nested, segment)
        ? (nested as Record<string, unknown>)[segment]
        : undefined;
  }
  if (nested !== fields) {
    values.push(nested);
  }
  return values;
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

/**
 * Characters judged between two turns of the event loop. A multipart body may hold 25 MB of text
 * (each value at most 64 KiB): judged at once, even in linear time, it would hold the loop for a
 * second; a slice of this size costs a few milliseconds.
 */
const CHARACTERS_PER_TURN = 64 * 1024;

/** The values' strings, letting the event loop turn after each slice of CHARACTERS_PER_TURN. */
async function* stringsTakingTurns(fields: Record<string, unknown>): AsyncGenerator<string> {
  let sinceTurn = 0;
  for (const text of stringsOf(fields)) {
    if (sinceTurn >= CHARACTERS_PER_TURN) {
      sinceTurn = 0;
      await setImmediate();
    }
    sinceTurn += text.length;
    yield text;
  }
}

async function countLinks(fields: Record<string, unknown>): Promise<number> {
  let count = 0;
  for await (const text of stringsTakingTurns(fields)) {
    count += text.match(LINK)?.length ?? 0;
  }
  return count;
}

// The compiled list of each form's blocked words, kept as long as the form's cached row holds it.
const matchers = new WeakMap<readonly string[], PhraseMatcher>();

function blockedWordMatcher(words: readonly string[]): PhraseMatcher {
  let matcher = matchers.get(words);
  if (matcher === undefined) {
    matcher = phraseMatcher(words);
    matchers.set(words, matcher);
  }
  return matcher;
}

/**
 * Why the submission is spam by the form's rules, or undefined. `fileFields` are the fields files
 * were sent in: a file in a honeypot field fills it too.
 */
export async function contentSpamReason(
  rules: ContentRules,
  fields: Record<string, unknown>,
  fileFields: readonly string[],
): Promise<SpamReason | undefined> {
  for (const name of rules.honeypotFields ?? []) {
    const fileInIt = fileFields.some((field) => field === name || field.startsWith(`${name}[`));
    if (fileInIt || honeypotValues(fields, name).some(isFilled)) {
      return 'honeypot';
    }
  }
  if (rules.maxLinks !== null && (await countLinks(fields)) > rules.maxLinks) {
    return 'links';
  }
  if (rules.blockedWords && rules.blockedWords.length > 0) {
    const blocked = blockedWordMatcher(rules.blockedWords);
    for await (const text of stringsTakingTurns(fields)) {
      if (blocked.matches(text)) {
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

/** Everything of a submission that is stored or decided, as the duplicate filter compares it. */
export interface DuplicateContent {
  /** The values as sent (the CAPTCHA answer removed): what they were sanitised to follows from them. */
  fields: Record<string, unknown>;
  files: readonly { field: string; name: string; mimeType: string; sha256: string }[];
  spamReason: SpamReason | undefined;
}

/**
 * The duplicate filter's key. A repeat is answered with the first submission's id, so it must be
 * the same submission in every respect: the values, each file's field, name, type and bytes, in
 * order, and the spam verdict (content stored as spam during a CAPTCHA outage is no duplicate of
 * the same content with a valid answer).
 */
export function contentHash({ fields, files, spamReason }: DuplicateContent): string {
  const content = canonicalJson({
    fields,
    files: files.map((file) => [file.field, file.name, file.mimeType, file.sha256]),
    spam: spamReason ?? null,
  });
  return createHash('sha256').update(content).digest('hex');
}
