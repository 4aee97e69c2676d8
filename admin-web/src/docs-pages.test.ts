// The documentation the console links to (admin-web/docs-pages.ts builds it into dist/docs/): every
// page is there, and every link and image inside it leads to a built file and, with an anchor, to
// an id of that file. Reads the build that `npm test` makes first.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { DOCS_PAGES } from './lib/docs';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/docs');
const REPO_DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs');

const pages = () => readdirSync(DOCS, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html'));

const idsOf = (file: string) => new Set([...readFileSync(file, 'utf8').matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));

describe("the console's documentation pages", () => {
  it('publish the README as the index and every page of docs/', () => {
    const markdown = readdirSync(REPO_DOCS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
    expect(markdown.length).toBeGreaterThan(20);
    expect(pages().sort()).toEqual(['index.html', ...markdown.map((f) => f.replace(/\.md$/, '.html'))].sort());
    const teams = readFileSync(path.join(DOCS, 'teams.html'), 'utf8');
    expect(teams).toMatch(/<title>[^<]+ · Intake documentation<\/title>/);
    expect(teams).toContain('<link rel="stylesheet" href="./docs.css">');
  });

  it('link only to built files and to headings that exist', () => {
    const broken: string[] = [];
    for (const page of pages()) {
      const html = readFileSync(path.join(DOCS, page), 'utf8');
      for (const [, href = ''] of html.matchAll(/ (?:href|src)="([^"]+)"/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href === '/') {
          continue;
        }
        const [target = '', anchor] = href.split('#');
        const file = target ? path.resolve(path.dirname(path.join(DOCS, page)), target) : path.join(DOCS, page);
        if (!file.startsWith(DOCS) || !existsSync(file)) {
          broken.push(`${page}: ${href} (no such file)`);
        } else if (anchor && !idsOf(file).has(anchor)) {
          broken.push(`${page}: ${href} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("hold every page and heading the console's Help links name", () => {
    const missing = Object.values(DOCS_PAGES).filter((link) => {
      const [page = '', anchor] = link.split('#');
      const file = path.join(DOCS, page);
      return !existsSync(file) || (anchor !== undefined && !idsOf(file).has(anchor));
    });
    expect(missing).toEqual([]);
  });

  it('turn links to source files into plain text rather than dead links', () => {
    const html = pages()
      .map((page) => readFileSync(path.join(DOCS, page), 'utf8'))
      .join('\n');
    expect(html).not.toMatch(/href="[^"]*\.(ts|tsx|js|md)(#[^"]*)?"/);
  });
});
