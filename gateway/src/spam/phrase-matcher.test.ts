import { phraseMatcher } from './phrase-matcher.js';

/** The regular expression the matcher replaced: its rules are the matcher's specification. */
function formerPattern(phrases: readonly string[]): RegExp | undefined {
  const parts = phrases
    .map((phrase) => phrase.trim())
    .filter((phrase) => phrase !== '')
    .map((phrase) =>
      phrase
        .split(/\s+/u)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join(String.raw`\s+`),
    );
  const word = String.raw`[\p{L}\p{N}_]`;
  return parts.length === 0 ? undefined : new RegExp(`(?<!${word})(?:${parts.join('|')})(?!${word})`, 'iu');
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

// Letters with case pairs that differ in length or fold oddly, marks, digits, `_`, metacharacters
// and several kinds of whitespace.
const ALPHABET = [
  'a',
  'b',
  'A',
  'B',
  'é',
  'É',
  'ß',
  'ſ',
  's',
  'S',
  'K',
  'k',
  'σ',
  'ς',
  'Σ',
  'İ',
  'i',
  'ı',
  '\u0301',
  '1',
  '_',
  '+',
  '.',
  '-',
  '(',
  '!',
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u3000',
  '😀',
];

function randomText(next: () => number, maxLength: number): string {
  const length = Math.floor(next() * maxLength);
  return Array.from({ length }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
}

describe('the blocked-phrase matcher', () => {
  it('finds what the former whole-word expression found, and only that, on random lists and texts', () => {
    const next = random(21);
    const disagreements: { phrases: string[]; text: string; expected: boolean }[] = [];
    for (let round = 0; round < 3000; round++) {
      const phrases = Array.from({ length: 1 + Math.floor(next() * 4) }, () => randomText(next, 5));
      const pattern = formerPattern(phrases);
      const matcher = phraseMatcher(phrases);
      for (let sample = 0; sample < 5; sample++) {
        const text = randomText(next, 14);
        const expected = pattern?.test(text) ?? false;
        if (matcher.matches(text) !== expected) {
          disagreements.push({ phrases, text, expected });
        }
      }
    }
    expect(disagreements.slice(0, 5)).toEqual([]);
  });

  it('keeps the documented rules: whole words, any whitespace, case-insensitive, metacharacters literal', () => {
    const matcher = phraseMatcher(['c++', 'free money', 'café', 'a.b', '(x)']);
    for (const text of ['learn C++ today', 'FREE\t\u00a0MONEY!', 'au CAFÉ', 'c+++', '((x))', '"free money"']) {
      expect([text, matcher.matches(text)]).toEqual([text, true]);
    }
    for (const text of ['xc++', 'cafés', 'freemoney', 'free moneys', 'axb', 'a(x)', '']) {
      expect([text, matcher.matches(text)]).toEqual([text, false]);
    }
    expect(phraseMatcher([]).matches('anything')).toBe(false);
    expect(phraseMatcher(['  ']).matches('  ')).toBe(false);
  });

  it('takes time linear in the text whatever the list: 200 phrases sharing their first 19 words, 1 MB of text', () => {
    const shared = 'buy cheap pills now '.repeat(5).trim().split(' ').slice(0, 19).join(' ');
    const phrases = Array.from({ length: 200 }, (_, index) => `${shared} x${index}`);
    const twoWords = Array.from({ length: 200 }, (_, index) => `buy x${index}`);
    const text = `${shared} `.repeat(Math.ceil((1024 * 1024) / (shared.length + 1)));
    for (const list of [phrases, twoWords]) {
      const matcher = phraseMatcher(list);
      const started = performance.now();
      expect(matcher.matches(text)).toBe(false);
      // Linear work over 1 MB is tens of milliseconds; the former expression took minutes here.
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});
