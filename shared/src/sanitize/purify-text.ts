// DOMPurify over one jsdom window, configured to leave text only. Used by index.ts.
// Each string is parsed into one reused fragment of one reused inert document, sanitised IN_PLACE,
// and DOMPurify's walk reuses one NodeIterator, so a call leaves nothing: jsdom keeps every Document
// and NodeIterator alive until the current job ends. jsdom and DOMPurify are loaded on the first
// string that needs them (synchronously, as sanitising is): they are about a fifth of an idle
// gateway's memory. Figures: docs/performance.md ("CPU per request: what each change measured", 4).
import { createRequire } from 'node:module';
import { escapeStoredText } from '../stored-text/index.js';
import type { Config, DOMPurify, WindowLike } from 'dompurify';
import type { JSDOM as JsdomClass } from 'jsdom';

const require = createRequire(import.meta.url);

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

const HTML_NS = 'http://www.w3.org/1999/xhtml';

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

interface Purifier {
  purify: DOMPurify;
  window: DomWindow;
  workspace: Workspace;
}

let purifier: Purifier | undefined;

function newWorkspace(window: DomWindow): Workspace {
  // createHTMLDocument gives an inert document: no browsing context, scripts never run, nothing loads.
  const document = window.document.implementation.createHTMLDocument('');
  return {
    parser: document.createElement('div'),
    root: document.createDocumentFragment(),
    lent: false,
    unsharedIterators: 0,
  };
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
  function createNodeIterator(
    this: Document,
    root: Node,
    whatToShow?: number,
    filter?: NodeFilter | null,
  ): NodeIterator {
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

function getPurifier(): Purifier {
  if (purifier === undefined) {
    // One window for the process, made on first use: a window per call costs milliseconds and megabytes.
    const { JSDOM } = require('jsdom') as { JSDOM: typeof JsdomClass };
    const createDOMPurify = require('dompurify') as (window: WindowLike) => DOMPurify;
    const window = new JSDOM('').window as unknown as DomWindow;
    shareNodeIterator(window, () => purifier?.workspace);
    const purify = createDOMPurify(window);
    // Parsed once: sanitize() re-parses a config passed to it on every call (~5 % of a call).
    purify.setConfig(CONFIG);
    purifier = { purify, window, workspace: newWorkspace(window) };
  }
  return purifier;
}

/** Template contents are dropped anyway; removing them first spares DOMPurify a walk of each. */
function removeTemplates(parser: HTMLElement): void {
  for (const template of parser.querySelectorAll('template')) {
    if (template.namespaceURI === HTML_NS) {
      template.remove();
    }
  }
}

const TEXT_NODE = 3;

/**
 * The HTML serialisation of a fragment that holds only text nodes: their data with `&`, `<`, `>` and
 * U+00A0 escaped, as the HTML fragment serialisation algorithm (and so jsdom's innerHTML) does for
 * text outside script and style. Cheaper than moving the nodes into an element to read its innerHTML.
 * Any other node left by DOMPurify fails closed.
 */
function serializeTextNodes(root: DocumentFragment): string {
  let text = '';
  for (let node = root.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType !== TEXT_NODE) {
      throw new Error('sanitiser left markup in a submitted string');
    }
    text += (node as Text).data;
  }
  return escapeStoredText(text);
}

/** The workspace of this call: a new one once too many iterators were not shared. */
function workspaceOf(state: Purifier): Workspace {
  if (state.workspace.unsharedIterators > MAX_UNSHARED_ITERATORS) {
    state.workspace = newWorkspace(state.window);
  }
  return state.workspace;
}

/** jsdom's parse of `html` into the reused element, in body context. */
function parse(ws: Workspace, html: string): void {
  ws.parser.innerHTML = html;
  if (/<template/i.test(html)) {
    removeTemplates(ws.parser);
  }
}

/** Moves the parsed nodes into the in-place root and lets DOMPurify walk it, removing every element. */
function walk(state: Purifier, ws: Workspace): void {
  while (ws.parser.firstChild !== null) {
    ws.root.appendChild(ws.parser.firstChild);
  }
  ws.lent = false;
  state.purify.sanitize(ws.root);
}

/** Leaves the workspace empty, whatever step a call stopped at. */
function clear(state: Purifier, ws: Workspace): void {
  ws.parser.textContent = '';
  ws.root.textContent = '';
  // `removed` holds the removed nodes until the next call; nothing needs them.
  state.purify.removed.length = 0;
}

/**
 * Parses `html` as a body fragment, lets DOMPurify remove every element (keeping their text, see
 * CONFIG) and returns the serialisation of what is left: text with `&`, `<`, `>` and U+00A0 escaped.
 */
export function purifyToText(html: string): string {
  const state = getPurifier();
  const ws = workspaceOf(state);
  try {
    parse(ws, html);
    walk(state, ws);
    return serializeTextNodes(ws.root);
  } finally {
    clear(state, ws);
  }
}

/**
 * purifyToText's first steps alone, on the same workspace, for the bench's split of its cost
 * (bench/src/sanitiser-cost.ts): `'parse'` is jsdom's parse of `html`, `'walk'` adds DOMPurify's
 * walk. Each leaves the workspace empty, as purifyToText does, and returns nothing.
 */
export function purifyUpTo(html: string, step: 'parse' | 'walk'): void {
  const state = getPurifier();
  const ws = workspaceOf(state);
  try {
    parse(ws, html);
    if (step === 'walk') {
      walk(state, ws);
    }
  } finally {
    clear(state, ws);
  }
}
