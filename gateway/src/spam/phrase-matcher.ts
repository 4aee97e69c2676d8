// Blocked words and phrases found in time linear in the text, whatever the list: the text is cut
// into tokens once and an Aho–Corasick automaton runs over the tokens, one step per token
// (amortised), stopping at the first phrase found. The regular expression of alternatives it
// replaces backtracked for seconds over a 4 KB body; the Aho–Corasick packages match characters,
// where a phrase is whole words whose spaces match any whitespace (docs/decisions/phrase-matcher.md).
// What matches: a phrase's words case-insensitively (Unicode simple case folding), every other
// character literally, any run of whitespace for a space, and only whole (docs/spam-protection.md).

/** Word characters: a phrase must not be part of a longer run of them. */
const TOKEN = /([\p{L}\p{N}_]+)|(\s+)|([^])/gu;
const ASCII = /^[\x00-\x7f]*$/;

// Symbols of the automaton: the boundary mark, any token that is in no phrase, then each token of
// the list's vocabulary.
const BOUNDARY = 0;
const UNKNOWN = 1;

interface Token {
  text: string;
  word: boolean;
}

// Bounded: only characters that fold to another one are kept (a few thousand in Unicode).
const foldedCharacters = new Map<string, string>();

function isOneCharacter(text: string): boolean {
  const codePoint = text.codePointAt(0);
  return codePoint !== undefined && text.length === (codePoint > 0xffff ? 2 : 1);
}

/**
 * Unicode simple case folding of one character, as the former `iu` expression compared them:
 * lower(upper(c)) when both are one character, confirmed by the regular expression engine itself
 * (to it a dotless ı is no i, though its upper case is I).
 */
function foldCharacter(character: string): string {
  const known = foldedCharacters.get(character);
  if (known !== undefined) {
    return known;
  }
  const upper = character.toUpperCase();
  const candidate = isOneCharacter(upper) ? upper.toLowerCase() : character.toLowerCase();
  if (candidate === character || !isOneCharacter(candidate)) {
    return character;
  }
  const sameToTheEngine = new RegExp(`^\\u{${character.codePointAt(0)!.toString(16)}}$`, 'iu').test(candidate);
  const folded = sameToTheEngine ? candidate : character;
  foldedCharacters.set(character, folded);
  return folded;
}

function fold(text: string): string {
  if (ASCII.test(text)) {
    return text.toLowerCase();
  }
  let folded = '';
  for (const character of text) {
    folded += foldCharacter(character);
  }
  return folded;
}

/** Maximal runs of word characters, each whitespace run as one space, every other character alone. */
function* tokensOf(text: string): Generator<Token> {
  for (const [, word, space, other] of text.matchAll(TOKEN)) {
    if (word !== undefined) {
      yield { text: fold(word), word: true };
    } else if (space !== undefined) {
      yield { text: ' ', word: false };
    } else {
      yield { text: fold(other!), word: false };
    }
  }
}

/**
 * The token symbols with a boundary mark before a non-word token that follows a non-word token or
 * starts the text, and after the last token when it is a non-word one. A phrase that starts or ends
 * with a non-word character (`c++`) then carries the mark itself, so a plain substring match of the
 * symbols is exactly the whole-word rule: `c++` is found in "learn c++ today", not in "xc++".
 */
function* symbolsOf(tokens: Iterable<Token>, symbolOf: (token: string) => number): Generator<number> {
  let previousWord: boolean | undefined;
  for (const token of tokens) {
    if (!token.word && previousWord !== true) {
      yield BOUNDARY;
    }
    yield symbolOf(token.text);
    previousWord = token.word;
  }
  if (previousWord === false) {
    yield BOUNDARY;
  }
}

export interface PhraseMatcher {
  /** True when one of the phrases occurs in `text`. */
  matches(text: string): boolean;
}

/** An Aho–Corasick automaton over the phrases' token symbols. */
export function phraseMatcher(phrases: readonly string[]): PhraseMatcher {
  const vocabulary = new Map<string, number>();
  const symbolOfPhraseToken = (token: string): number => {
    let symbol = vocabulary.get(token);
    if (symbol === undefined) {
      symbol = vocabulary.size + 2;
      vocabulary.set(token, symbol);
    }
    return symbol;
  };

  // The trie: children by symbol, then failure links and "a phrase ends here or at a suffix".
  const children: Map<number, number>[] = [new Map()];
  const accepting: boolean[] = [false];
  for (const phrase of phrases) {
    if (phrase.trim() === '') {
      continue;
    }
    let state = 0;
    for (const symbol of symbolsOf(tokensOf(phrase.trim()), symbolOfPhraseToken)) {
      let next = children[state]!.get(symbol);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        accepting.push(false);
        children[state]!.set(symbol, next);
      }
      state = next;
    }
    accepting[state] = true;
  }
  const failure = new Array<number>(children.length).fill(0);
  const queue = [...children[0]!.values()];
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (const [symbol, child] of children[state]!) {
      let fallback = failure[state]!;
      while (fallback !== 0 && !children[fallback]!.has(symbol)) {
        fallback = failure[fallback]!;
      }
      const target = children[fallback]!.get(symbol);
      failure[child] = target !== undefined && target !== child ? target : 0;
      accepting[child] = accepting[child]! || accepting[failure[child]!]!;
      queue.push(child);
    }
  }

  const symbolOfTextToken = (token: string): number => vocabulary.get(token) ?? UNKNOWN;
  return {
    matches(text: string): boolean {
      if (children[0]!.size === 0) {
        return false;
      }
      let state = 0;
      for (const symbol of symbolsOf(tokensOf(text), symbolOfTextToken)) {
        let next = children[state]!.get(symbol);
        while (next === undefined && state !== 0) {
          state = failure[state]!;
          next = children[state]!.get(symbol);
        }
        state = next ?? 0;
        if (accepting[state]) {
          return true;
        }
      }
      return false;
    },
  };
}
