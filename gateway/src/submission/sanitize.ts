// XSS sanitisation of submitted values (CONTRACT.md §3): no markup survives, the stored string is the
// HTML-escaped text DOMPurify serialises, and a string with none of < > & " ' is stored unchanged.
//
// Memory: jsdom keeps every Document and NodeIterator it creates alive (a WeakRef each) until the
// current job ends, so DOMPurify's usual string path (a new Document per call) holds ~18 KB per string
// during one synchronous loop. Here each string is parsed into one reused fragment of one reused inert
// document, sanitised IN_PLACE, and DOMPurify's walk reuses one NodeIterator: a call leaves nothing.
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import type { Config, DOMPurify, WindowLike } from 'dompurify';

// No element and no attribute survives. '#document-fragment' admits only the in-place root: no parsed
// node can carry that name. KEEP_CONTENT hoists the text of removed elements, except inside DOMPurify's
// FORBID_CONTENTS (script, style, template, noscript, title, iframe, svg, math, xmp, …): script and
// style bodies are code, not text a person typed for display, so they are dropped.
const CONFIG = {
  ALLOWED_TAGS: ['#document-fragment'],
  ALLOWED_ATTR: [],
  KEEP_CONTENT: true,
  IN_PLACE: true,
} satisfies Config;

const HTML_SPECIAL = /[<>&"']/;
const HTML_NS = 'http://www.w3.org/1999/xhtml';

// The HTML parser can be driven to build a number of elements quadratic in the input (formatting
// elements reconstructed in every block, adoption-agency clones, deep nesting) and jsdom spends tens of
// µs per element: a 10 KB string could hold the event loop for minutes. A string whose markup is over
// these bounds is stored as escaped text instead (just as inert; its tags show as text). `<` counts
// every tag; formatting start tags bound the elements the parser can clone per tag.
export const MAX_MARKUP_TAGS = 512;
export const MAX_MARKUP_COST = 4096;
const FORMATTING_START_TAG = /<(?:a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u)(?=[\s/>])/gi;

// Documents gather the iterators we could not share and scan all of them on every node removal;
// starting a new one after this many keeps that scan short.
const MAX_UNSHARED_ITERATORS = 256;

// The parts of the jsdom window we use, typed as the DOM globals they are.
type DomWindow = WindowLike & Pick<typeof globalThis, 'document' | 'Document' | 'NodeFilter'>;

interface Workspace {
  /** Parses each string as a fragment in body context, like DOMPurify's own body parsing. */
  parser: HTMLElement;
  /** The in-place root handed to DOMPurify. */
  root: DocumentFragment;
  iterator?: NodeIterator;
  /** Whether the shared iterator was handed out during the current call. */
  lent: boolean;
  unsharedIterators: number;
}

interface Sanitizer {
  purify: DOMPurify;
  window: DomWindow;
  workspace: Workspace;
}

let sanitizer: Sanitizer | undefined;

function newWorkspace(window: DomWindow): Workspace {
  // createHTMLDocument gives an inert document: no browsing context, scripts never run, nothing loads.
  const document = window.document.implementation.createHTMLDocument('');
  return { parser: document.createElement('div'), root: document.createDocumentFragment(), lent: false, unsharedIterators: 0 };
}

/**
 * DOMPurify takes createNodeIterator from the template-contents document of its window, once, when it
 * is created. Its walk over our root gets the shared iterator, once per call and only when it provably
 * starts at the root (the fragment root is never shown, so either pointer side walks every node);
 * anything else gets a new iterator, which is always correct.
 */
function shareNodeIterator(window: DomWindow, current: () => Workspace | undefined): void {
  const nativeCreate = window.Document.prototype.createNodeIterator;
  const SHOW_FRAGMENT = window.NodeFilter.SHOW_DOCUMENT_FRAGMENT;
  function createNodeIterator(this: Document, root: Node, whatToShow?: number, filter?: NodeFilter | null): NodeIterator {
    const ws = current();
    if (ws === undefined) {
      return nativeCreate.call(this, root, whatToShow, filter);
    }
    if (root !== ws.root || ws.lent || (filter ?? null) !== null || whatToShow === undefined) {
      ws.unsharedIterators += 1;
      return nativeCreate.call(this, root, whatToShow, filter);
    }
    ws.lent = true;
    const shared = ws.iterator;
    if (
      shared !== undefined &&
      shared.root === root &&
      shared.whatToShow === whatToShow &&
      shared.referenceNode === root &&
      (shared.pointerBeforeReferenceNode || (whatToShow & SHOW_FRAGMENT) === 0)
    ) {
      return shared;
    }
    const fresh = nativeCreate.call(this, root, whatToShow, null);
    ws.iterator = fresh;
    return fresh;
  }
  const templateDocument = window.document.createElement('template').content.ownerDocument;
  Object.defineProperty(templateDocument, 'createNodeIterator', { value: createNodeIterator });
}

function getSanitizer(): Sanitizer {
  if (sanitizer === undefined) {
    // One window for the process, made on first use: a window per call costs milliseconds and megabytes.
    const window = new JSDOM('').window as unknown as DomWindow;
    shareNodeIterator(window, () => sanitizer?.workspace);
    sanitizer = { purify: createDOMPurify(window), window, workspace: newWorkspace(window) };
  }
  return sanitizer;
}

function isMarkupOverBudget(s: string): boolean {
  let tags = 0;
  for (let at = s.indexOf('<'); at !== -1; at = s.indexOf('<', at + 1)) {
    tags += 1;
  }
  if (tags > MAX_MARKUP_TAGS) {
    return true;
  }
  const formatting = s.match(FORMATTING_START_TAG)?.length ?? 0;
  return tags * (1 + formatting) > MAX_MARKUP_COST;
}

function escapeText(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function escapeQuotes(s: string): string {
  return s.replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** Template contents are dropped anyway; removing them first spares DOMPurify a walk of each. */
function removeTemplates(parser: HTMLElement): void {
  for (const template of parser.querySelectorAll('template')) {
    if (template.namespaceURI === HTML_NS) {
      template.remove();
    }
  }
}

function purifyToText(state: Sanitizer, s: string): string {
  if (state.workspace.unsharedIterators > MAX_UNSHARED_ITERATORS) {
    state.workspace = newWorkspace(state.window);
  }
  const ws = state.workspace;
  try {
    ws.parser.innerHTML = s;
    if (/<template/i.test(s)) {
      removeTemplates(ws.parser);
    }
    while (ws.parser.firstChild !== null) {
      ws.root.appendChild(ws.parser.firstChild);
    }
    ws.lent = false;
    state.purify.sanitize(ws.root, CONFIG);
    // Appending a fragment moves its children: the parser now holds the sanitised text nodes.
    ws.parser.appendChild(ws.root);
    const html = ws.parser.innerHTML;
    // Only text nodes can remain, and serialised text never holds `<`; anything else fails closed.
    if (html.includes('<')) {
      throw new Error('sanitiser left markup in a submitted string');
    }
    return html;
  } finally {
    ws.parser.textContent = '';
    ws.root.textContent = '';
    // `removed` holds the removed nodes until the next call; nothing needs them.
    state.purify.removed.length = 0;
  }
}

/**
 * Sanitise one submitted string. The result holds no `<`, `>` or quote: DOMPurify's serialisation
 * escapes `& < >` (and U+00A0 as `&nbsp;`) in text, and we also escape `"` as `&quot;` and `'` as
 * `&#39;`, so the stored value is inert both as element content and inside a quoted attribute.
 */
export function sanitizeString(s: string): string {
  if (!HTML_SPECIAL.test(s)) {
    return s;
  }
  const text = isMarkupOverBudget(s) ? escapeText(s) : purifyToText(getSanitizer(), s);
  return escapeQuotes(text);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Sanitise a submitted value: strings in arrays and plain objects at any depth are sanitised, keys
 * are kept as sent, and every other value (numbers, booleans, null) is returned as it is. Meant to
 * run after validateSubmissionBody, which bounds the depth of this recursion.
 */
export function sanitizeValue(value: unknown): unknown {
  if (typeof value === 'string') {
    return sanitizeString(value);
  }
  if (Array.isArray(value)) {
    return value.map(sanitizeValue);
  }
  if (isPlainObject(value)) {
    // fromEntries defines own properties, so a `__proto__` key can never become a prototype.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sanitizeValue(item)]));
  }
  return value;
}
