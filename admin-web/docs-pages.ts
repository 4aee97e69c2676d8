// The README and docs/ as static pages of the console's build (dist/docs/…), so the console can
// link to the documentation of the version it runs, offline and behind any proxy. Rendered at build
// time by `marked`; anchors are GitHub's (github-slugger), so links written for GitHub work here.
// The Markdown is our own, and the console's CSP (script-src 'self') keeps any script out anyway.
// Why built in: docs/decisions/console-docs.md.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { Marked, Renderer, type Token, type Tokens } from 'marked';
import type { Plugin } from 'vite';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the pages go inside the build, and the URL path they are served at. */
export const DOCS_DIR = 'docs';

interface Source {
  /** Path of the Markdown file in the repository, e.g. `docs/teams.md`. */
  file: string;
  /** Path of its page under DOCS_DIR, e.g. `teams.html`. */
  page: string;
}

/** README.md becomes the index; docs/**.md keep their names with `.html`. */
function sources(): Source[] {
  const found: Source[] = [{ file: 'README.md', page: 'index.html' }];
  for (const entry of readdirSync(path.join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })) {
    if (entry.endsWith('.md')) {
      found.push({ file: path.posix.join('docs', entry), page: entry.replace(/\.md$/, '.html') });
    }
  }
  return found;
}

/** Files of docs/ that pages may show or link to (screenshots, the JSON Schema, the GraphQL schema). */
function assets(): Set<string> {
  const files = readdirSync(path.join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' });
  return new Set(files.filter((entry) => /\.(png|svg|json|graphql)$/.test(entry)));
}

/** Inline tokens as the plain text GitHub makes a heading's anchor from. */
function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => ('tokens' in token && token.tokens ? plainText(token.tokens) : 'text' in token ? token.text : ''))
    .join('');
}

/** What the build publishes: each Markdown file's page by its repository path, and docs/' assets. */
interface Published {
  pages: Map<string, string>;
  assets: Set<string>;
}

/**
 * Where a relative link of `source` leads in the built pages: a page or an asset of docs/, relative
 * to the page; null for a file that is not published (source code), whose link becomes plain text.
 */
function rewriteHref(href: string, source: Source, published: Published): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) {
    return href;
  }
  const [target = '', anchor] = href.split('#');
  const repoPath = path.posix.normalize(path.posix.join(path.posix.dirname(source.file), target));
  const asset = repoPath.startsWith('docs/') ? repoPath.slice('docs/'.length) : null;
  const output = published.pages.get(repoPath) ?? (asset !== null && published.assets.has(asset) ? asset : null);
  if (output === null) {
    return null;
  }
  const relative = path.posix.relative(path.posix.dirname(source.page), output) || path.posix.basename(output);
  return anchor ? `${relative}#${anchor}` : relative;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** One Markdown file as a whole HTML page. */
function renderPage(source: Source, published: Published): string {
  const slugger = new GithubSlugger();
  let title = 'Intake';
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: Renderer, heading: Tokens.Heading) {
        const text = plainText(heading.tokens);
        if (heading.depth === 1 && title === 'Intake') {
          title = text;
        }
        return `<h${heading.depth} id="${escapeHtml(slugger.slug(text))}">${this.parser.parseInline(heading.tokens)}</h${heading.depth}>\n`;
      },
      link(this: Renderer, link: Tokens.Link) {
        const inner = this.parser.parseInline(link.tokens);
        const href = rewriteHref(link.href, source, published);
        if (href === null) {
          return inner;
        }
        const external = /^https?:/i.test(href) ? ' rel="noreferrer"' : '';
        return `<a href="${escapeHtml(href)}"${external}>${inner}</a>`;
      },
      image(image: Tokens.Image) {
        const src = rewriteHref(image.href, source, published);
        return src === null ? escapeHtml(image.text) : `<img src="${escapeHtml(src)}" alt="${escapeHtml(image.text)}">`;
      },
      // Wide tables and code scroll inside the page instead of widening it on a phone; what scrolls
      // takes the keyboard's focus, so it can be scrolled without a pointer.
      table(this: Renderer, table: Tokens.Table) {
        return `<div class="table" tabindex="0">${Renderer.prototype.table.call(this, table)}</div>`;
      },
      code(this: Renderer, code: Tokens.Code) {
        return Renderer.prototype.code.call(this, code).replace(/^<pre>/, '<pre tabindex="0">');
      },
    },
  });
  const body = marked.parse(readFileSync(path.join(REPO_ROOT, source.file), 'utf8'), { async: false });
  const root = path.posix.relative(path.posix.dirname(source.page), '.') || '.';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Intake documentation</title>
<link rel="stylesheet" href="${root}/docs.css">
</head>
<body>
<header><nav aria-label="Documentation"><a href="${root}/index.html">Intake documentation</a><a href="/">Back to the console</a></nav></header>
<main>
${body}</main>
</body>
</html>
`;
}

const STYLESHEET = `:root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.55; color: #1f2328; }
body { margin: 0; }
header { border-bottom: 1px solid #d0d7de; background: #f6f8fa; }
header nav { max-width: 880px; margin: 0 auto; padding: 12px 16px; display: flex; gap: 24px; flex-wrap: wrap; }
main { max-width: 880px; margin: 0 auto; padding: 8px 16px 48px; overflow-wrap: break-word; }
h1 { font-size: 1.75em; line-height: 1.25; }
a { color: #0b57d0; }
code { font-size: 0.9em; background: #eff1f3; padding: 0.1em 0.3em; border-radius: 4px; }
pre { background: #f6f8fa; padding: 12px; overflow-x: auto; border-radius: 6px; }
pre code { background: none; padding: 0; }
.table { overflow-x: auto; }
table { border-collapse: collapse; margin: 12px 0; }
th, td { border: 1px solid #d0d7de; padding: 6px 10px; text-align: left; vertical-align: top; }
img { max-width: 100%; height: auto; }
`;

/** The Vite plugin: emits every page, the stylesheet and docs/' assets into the build. */
export function docsPages(): Plugin {
  return {
    name: 'intake-docs-pages',
    apply: 'build',
    generateBundle() {
      const all = sources();
      const published = { pages: new Map(all.map((source) => [source.file, source.page])), assets: assets() };
      for (const source of all) {
        this.emitFile({ type: 'asset', fileName: `${DOCS_DIR}/${source.page}`, source: renderPage(source, published) });
      }
      for (const asset of published.assets) {
        this.emitFile({
          type: 'asset',
          fileName: `${DOCS_DIR}/${asset}`,
          source: readFileSync(path.join(REPO_ROOT, 'docs', asset)),
        });
      }
      this.emitFile({ type: 'asset', fileName: `${DOCS_DIR}/docs.css`, source: STYLESHEET });
    },
  };
}
