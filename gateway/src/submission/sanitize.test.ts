import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { purifyToText, purifyUpTo } from './sanitize.js';
import { decodeStoredText } from '@intake/shared/stored-text';
import {
  MAX_MARKUP_TAGS,
  MAX_VALUE_MARKUP_COST,
  needsParser,
  sanitizeString,
  sanitizeSubmission,
  sanitizeValue,
} from './sanitize.js';
import { XSS_CORPUS } from '../test/xss-corpus.js';

// A page that would run any script it is given: the outputs are inserted into it as HTML.
const page = new JSDOM('<!doctype html><body></body>', { runScripts: 'dangerously' });
const executed: string[] = [];
page.window.alert = (message?: unknown) => {
  executed.push(String(message));
};

function insertAsHtml(html: string): HTMLDivElement {
  const div = page.window.document.createElement('div');
  page.window.document.body.append(div);
  div.innerHTML = html;
  return div;
}

/** What a browser shows for a stored value inserted as HTML. */
function displayed(html: string): string {
  const div = insertAsHtml(html);
  const text = div.textContent ?? '';
  div.remove();
  return text;
}

function nodeTypesOf(fragment: DocumentFragment): number[] {
  const types: number[] = [];
  const walker = fragment.ownerDocument.createTreeWalker(fragment);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    types.push(node.nodeType);
  }
  return types;
}

const TEXT_NODE = 3;

describe('sanitizeString against the XSS corpus', () => {
  it('holds at least 100 vectors from at least 12 families', () => {
    expect(XSS_CORPUS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(XSS_CORPUS.map((entry) => entry.family)).size).toBeGreaterThanOrEqual(12);
  });

  describe.each(XSS_CORPUS.map((entry) => [entry.family, entry.vector] as const))('%s: %j', (_family, vector) => {
    const output = sanitizeString(vector);

    it('leaves no character that can open markup or end an attribute', () => {
      expect(output).not.toMatch(/[<>"']/);
    });

    it('re-parses as text only: no element, comment or other node', () => {
      const fragment = JSDOM.fragment(output);
      expect(fragment.querySelectorAll('*')).toHaveLength(0);
      expect(nodeTypesOf(fragment).every((type) => type === TEXT_NODE)).toBe(true);
    });

    it('adds no element to a scripting page, as element content or as a quoted attribute', () => {
      const asContent = insertAsHtml(output);
      expect(asContent.querySelectorAll('*')).toHaveLength(0);
      asContent.remove();

      const asAttributes = insertAsHtml(`<p title="${output}" class='${output}'>x</p>`);
      expect(asAttributes.querySelectorAll('*')).toHaveLength(1);
      const p = asAttributes.querySelector('p');
      expect(p?.getAttributeNames().sort()).toEqual(['class', 'title']);
      expect(p?.getAttribute('title')).toBe(displayed(output));
      asAttributes.remove();
    });

    it('is stable when sanitised again', () => {
      expect(sanitizeString(output)).toBe(output);
    });
  });

  it('ran no script in the page', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(executed).toEqual([]);
  });
});

describe('sanitizeString fidelity', () => {
  it.each([
    ['plain ASCII', 'Hello, world'],
    ['accents and CJK', 'Zoë Straße, 東京都 渋谷区'],
    ['emoji with joiners', '👩‍💻 🎉 👍🏽 🇫🇷'],
    ['Arabic RTL', 'مرحبا بالعالم'],
    ['Hebrew RTL', 'שלום עולם'],
    ['newlines and tabs', 'line 1\nline 2\r\n\tindented\n'],
    ['arithmetic', '2 + 2 = 4; 10 % 3 = 1'],
    ['email and URL', 'jane@example.com https://example.com/a?b=1;c=2#d'],
    ['no-break space', 'a\u00A0b'],
    ['spaces only', '   '],
    ['empty', ''],
    ['very long', 'lorem ipsum '.repeat(20_000)],
  ])('keeps %s unchanged (no < > & " \')', (_name, input) => {
    expect(sanitizeString(input)).toBe(input);
  });

  it.each([
    ['<b>bold</b> text', 'bold text'],
    ['<p>one</p><p>two</p>', 'onetwo'],
    ['<a href="https://example.com">link</a>', 'link'],
    ['  <i>padded</i>  ', '  padded  '],
    ['<ul><li>a</li><li>b</li></ul>', 'ab'],
    ['<script>alert(1)</script>hello', 'hello'],
    ['<style>p { color: red }</style>styled', 'styled'],
    ['<template><b>hidden</b></template>shown', 'shown'],
    ['<!-- comment -->text', 'text'],
  ])('keeps the text of %j', (input, expected) => {
    expect(sanitizeString(input)).toBe(expected);
  });

  it.each([
    ['a < b', 'a &lt; b'],
    ['a > b', 'a &gt; b'],
    ['Tom & Jerry', 'Tom &amp; Jerry'],
    ['5 > 3 && 2 < 4', '5 &gt; 3 &amp;&amp; 2 &lt; 4'],
    ['say "hi"', 'say &quot;hi&quot;'],
    ["it's", 'it&#39;s'],
    ['AT&T\u00A0Inc', 'AT&amp;T&nbsp;Inc'],
  ])('stores %j as escaped text that displays as sent', (input, expected) => {
    const output = sanitizeString(input);
    expect(output).toBe(expected);
    expect(displayed(output)).toBe(input);
  });

  it('decodes entities to the text they stand for, then escapes that text', () => {
    expect(sanitizeString('&lt;b&gt;')).toBe('&lt;b&gt;');
    expect(sanitizeString('&amp;')).toBe('&amp;');
    expect(sanitizeString('&copy; 2024 &#x263A;')).toBe('© 2024 ☺');
  });

  it('treats `<` followed by a letter as a tag, as a browser would', () => {
    expect(sanitizeString('a<b')).toBe('a');
    expect(sanitizeString('x<y>z')).toBe('xz');
  });
});

describe('sanitizeString without a parser', () => {
  // The `<b></b>` prefix forces the DOMPurify path and adds no text: both paths must agree.
  it.each([
    'Tom & Jerry',
    'a > b',
    'x && y; z &',
    '& #1 &; &&',
    'say "hi", it\'s',
    'no\u00A0break & space',
    'line 1 &\r\nline 2\rline 3\n',
    '  & padded  ',
  ])('serialises %j exactly as DOMPurify does', (input) => {
    expect(sanitizeString(input)).toBe(sanitizeString(`<b></b>${input}`));
  });

  it('handles many plain-text strings quickly', () => {
    const started = performance.now();
    const output = sanitizeValue(Array.from({ length: 100_000 }, () => 'Tom & Jerry')) as string[];
    expect(output.every((item) => item === 'Tom &amp; Jerry')).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('sanitizeString markup budget', () => {
  it(`sanitises up to ${MAX_MARKUP_TAGS} tags with DOMPurify and serialises more as text`, () => {
    expect(sanitizeString('<br>x'.repeat(MAX_MARKUP_TAGS))).toBe('x'.repeat(MAX_MARKUP_TAGS));
    const over = '<br>x'.repeat(MAX_MARKUP_TAGS + 1);
    expect(displayed(sanitizeString(over))).toBe(over);
  });

  it.each([
    ['deep nesting', '<b>x'.repeat(16_000)],
    ['many tags', '<br>'.repeat(16_000)],
    ['reconstructed formatting', `<div>${'<b id=1>'.repeat(40)}</div>${'<p>x</p>'.repeat(60)}`],
  ])('stores %s over the budget as escaped text, quickly', (_name, input) => {
    const started = performance.now();
    const output = sanitizeString(input);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(output).not.toMatch(/[<>"']/);
    expect(insertAsHtml(output).querySelectorAll('*')).toHaveLength(0);
    expect(displayed(output)).toBe(input);
  });

  it('shares one budget between the strings of a value', () => {
    const markup = '<div>x</div>'.repeat(200);
    const cost = 1 + 400;
    const parsed = Math.floor(MAX_VALUE_MARKUP_COST / cost);
    const output = sanitizeValue({ fields: Array.from({ length: parsed + 2 }, () => markup) }) as {
      fields: string[];
    };
    expect(output.fields.slice(0, parsed).every((item) => item === 'x'.repeat(200))).toBe(true);
    for (const item of output.fields.slice(parsed)) {
      expect(item).not.toMatch(/[<>"']/);
      expect(displayed(item)).toBe(markup);
    }
  });
});

describe('sanitizeString memory', () => {
  it('does not keep a document per call inside one synchronous loop', () => {
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 10_000; i += 1) {
      sanitizeString(`<p onclick="x">entry ${i} & <b>more</b></p>`);
    }
    // jsdom's DOMParser path keeps ~18 KB per call until the job ends: ~180 MB here.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(80 * 1024 * 1024);
  });
});

describe("purifyUpTo, the bench's steps of purifyToText", () => {
  it('leaves nothing behind: a parse or a walk stopped short changes no later result', () => {
    const html = '<p>one <b>two</b></p><template><i>gone</i></template><script>x()</script> & three';
    const expected = purifyToText(html);
    expect(expected).toBe('one two &amp; three');
    for (const step of ['parse', 'walk'] as const) {
      expect(purifyUpTo(html, step)).toBeUndefined();
      expect(purifyToText('<em>four</em>')).toBe('four');
      expect(purifyToText(html)).toBe(expected);
    }
  });
});

describe('sanitizeValue', () => {
  it('sanitises strings in nested arrays and objects and leaves other values alone', () => {
    const input = {
      name: '<b>Jane</b>',
      age: 42,
      ratio: 0.5,
      subscribed: true,
      note: null,
      tags: ['<i>a</i>', 7, false, null, ['<u>deep</u>']],
      address: { street: 'Main St & 5th', lines: [{ text: '<script>x</script>ok' }] },
    };
    expect(sanitizeValue(input)).toEqual({
      name: 'Jane',
      age: 42,
      ratio: 0.5,
      subscribed: true,
      note: null,
      tags: ['a', 7, false, null, ['deep']],
      address: { street: 'Main St &amp; 5th', lines: [{ text: 'ok' }] },
    });
  });

  it('keeps keys as sent and does not change its input', () => {
    const input = { 'Name & Company': '<b>x</b>', 'é "key"': 'y' };
    const output = sanitizeValue(input) as Record<string, unknown>;
    expect(Object.keys(output)).toEqual(['Name & Company', 'é "key"']);
    expect(output['Name & Company']).toBe('x');
    expect(input['Name & Company']).toBe('<b>x</b>');
  });

  it('returns primitives as they are', () => {
    expect(sanitizeValue(3)).toBe(3);
    expect(sanitizeValue(false)).toBe(false);
    expect(sanitizeValue(null)).toBeNull();
    expect(sanitizeValue('<b>x</b>')).toBe('x');
  });

  it('keeps an own __proto__ key as data, never as a prototype', () => {
    const output = sanitizeValue(JSON.parse('{"__proto__":{"polluted":"<b>yes</b>"}}')) as object;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ polluted: 'yes' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts null-prototype objects from the form parsers', () => {
    const input = Object.assign(Object.create(null) as Record<string, unknown>, { field: ['<b>a</b>', 'b'] });
    expect(sanitizeValue(input)).toEqual({ field: ['a', 'b'] });
  });
});

describe('the fast path for text without markup', () => {
  // What the parser path stores for `s`: DOMPurify over jsdom, quotes escaped as sanitize.ts does.
  const throughParser = (s: string) => purifyToText(s).replaceAll('"', '&quot;').replaceAll("'", '&#39;');

  it('takes strings whose `<` and `&` cannot start markup or a reference, and no others', () => {
    for (const s of ['a < b', 'I <3 it', 'x <= y', '<', 'a <<< b', 'AT & T', '& ;', 'a >', '< 5 €']) {
      expect({ s, parser: needsParser(s) }).toEqual({ s, parser: false });
    }
    for (const s of ['<b>', '<!-- x -->', '</p>', '<?xml', '&amp;', '&#60;', 'AT&T', 'a\u0000b', '<a<b']) {
      expect({ s, parser: needsParser(s) }).toEqual({ s, parser: true });
    }
  });

  it('stores exactly what DOMPurify and the serialisation store, on generated strings', () => {
    const piece = fc.oneof(
      fc.constantFrom('<', '>', '&', '"', "'", '\r', '\n', '\r\n', '\u00A0', ' ', '=', '3', '#', ';', '-', '<3'),
      fc.constantFrom('< ', '<=', '<<', '<-', '<1', '<\u00E9', '&;', '& ', '&&', '\uD800', '\uDC00', '\uFEFF', '\f'),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    );
    const text = fc
      .array(piece, { maxLength: 24 })
      .map((pieces) => pieces.join(''))
      // A string with none of < > & " ' is stored as sent without either path (see the contract).
      .filter((s) => /[<>&"']/.test(s) && !needsParser(s));
    fc.assert(
      fc.property(text, (s) => {
        expect(sanitizeString(s)).toBe(throughParser(s));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('sanitizeSubmission: which values lost more than escaping', () => {
  it('names, by JSON path, the strings whose markup was removed', () => {
    const sent = {
      message: 'if (a<b && c>d) {}',
      items: ['plain', 'Tom & Jerry', '<b>bold</b>'],
      contact: { note: 'a < b & "c"', html: '<i>x</i>', deeper: [{ tag: 'x<br>y' }] },
      'a.b': '<p>dotted</p>',
      count: 3,
    };
    const { value, sanitizedFields } = sanitizeSubmission(sent);
    expect(value).toEqual(sanitizeValue(sent));
    expect(sanitizedFields).toEqual(['message', 'items[2]', 'contact.html', 'contact.deeper[0].tag', '["a.b"]']);
  });

  it('reports nothing for text that was only escaped', () => {
    const sent = { a: 'Tom & Jerry', b: `"quoted" 'x'`, c: 'a < b, I <3 it', d: 'x\r\ny & z', e: '\u00A0&', f: 42 };
    expect(sanitizeSubmission(sent).sanitizedFields).toEqual([]);
  });

  it('reports a character reference read as its character: the text reads back otherwise than sent', () => {
    expect(sanitizeSubmission({ company: 'AT&amp;T', plain: 'AT&T' }).sanitizedFields).toEqual(['company']);
  });

  it('reports a string exactly when its stored text, read back, is not what was sent', () => {
    const piece = fc.oneof(
      fc.constantFrom('<b>', '</b>', '<i x=">">', '<!--', '-->', '<', '>', '&', '&amp;', '&lt;', '&#39;', '"', "'"),
      fc.constantFrom('\r\n', '\n', '\u00A0', ' ', 'a', '<3', '< ', '<script>', '</p>', '&copy;', '&;'),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
    );
    const text = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(text, (s) => {
        const { value, sanitizedFields } = sanitizeSubmission({ field: s });
        // Line breaks aside: the parser reads CR LF as LF, which is no change to anybody reading it.
        const lines = (text: string) => text.replace(/\r\n?/g, '\n');
        const readBack = decodeStoredText((value as { field: string }).field);
        expect(sanitizedFields.length > 0).toBe(lines(readBack) !== lines(s));
      }),
      { numRuns: 1500 },
    );
  });
});
