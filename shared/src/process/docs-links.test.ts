// Every relative link of the README and of docs/ (and of the READMEs kept next to the code) leads
// somewhere: the file exists, and an anchor names a heading of that file as GitHub renders it.
// Moving text between files breaks anchors silently; this is where that shows.
import {
  existsSync,
  globSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { lexer, type Token } from 'marked';
import { REPO_ROOT } from '../test/processes.js';

/** The Markdown files whose links are checked, relative to `root`. */
function markdownFiles(root: string): string[] {
  return globSync(['README.md', 'docs/**/*.md', '*/src/**/README.md', '*/README.md'], {
    cwd: root,
    exclude: (name) => name === 'node_modules' || name === 'dist',
  }).sort();
}

/** Inline tokens as the plain text GitHub slugs a heading from. */
function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => ('tokens' in token && token.tokens ? plainText(token.tokens) : 'text' in token ? token.text : ''))
    .join('');
}

/** Walks block and inline tokens depth first. */
function* walk(tokens: Token[]): Generator<Token> {
  for (const token of tokens) {
    yield token;
    if ('tokens' in token && token.tokens) {
      yield* walk(token.tokens);
    }
    if (token.type === 'list') {
      yield* walk(token.items as Token[]);
    }
    if (token.type === 'table') {
      for (const cell of [...token.header, ...token.rows.flat()] as { tokens: Token[] }[]) {
        yield* walk(cell.tokens);
      }
    }
  }
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors of a Markdown file's headings, numbered on repeats as GitHub numbers them. */
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    const slugger = new GithubSlugger();
    anchors = new Set();
    for (const token of walk(lexer(readFileSync(file, 'utf8')))) {
      if (token.type === 'heading') {
        anchors.add(slugger.slug(plainText(token.tokens)));
      }
    }
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** Each relative link or image of `file` that leads nowhere, as `target (why)`. */
function brokenLinks(root: string, file: string): string[] {
  const absolute = path.join(root, file);
  const broken: string[] = [];
  for (const token of walk(lexer(readFileSync(absolute, 'utf8')))) {
    if (token.type !== 'link' && token.type !== 'image') {
      continue;
    }
    const href: string = token.href;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
      continue;
    } // https:, mailto: and the like
    const [target = '', anchor] = href.split('#', 2);
    const resolved = target ? path.resolve(path.dirname(absolute), decodeURIComponent(target)) : absolute;
    if (!existsSync(resolved)) {
      broken.push(`${href} (no such file)`);
    } else if (anchor !== undefined) {
      if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
        broken.push(`${href} (an anchor on something not Markdown)`);
      } else if (!anchorsOf(resolved).has(decodeURIComponent(anchor))) {
        broken.push(`${href} (no such heading)`);
      }
    }
  }
  return broken;
}

describe('links between the README and docs/', () => {
  it.each(markdownFiles(REPO_ROOT))('%s: every relative link and anchor resolves', (file) => {
    expect(brokenLinks(REPO_ROOT, file)).toEqual([]);
  });

  it('finds the README, every file of docs/ and the decision records', () => {
    const files = markdownFiles(REPO_ROOT);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/architecture.md');
    expect(files.some((file) => file.startsWith('docs/decisions/'))).toBe(true);
  });

  it('reports a missing file, a missing heading and an anchor on a folder, and accepts the rest', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'intake-docs-links-'));
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(
      path.join(root, 'docs/guide.md'),
      '# Guide\n\n## Rate limits, `per site`\n\n## Rate limits, `per site`\n\nSee [up](#guide).\n',
    );
    writeFileSync(
      path.join(root, 'README.md'),
      [
        '# Intake',
        '[ok](docs/guide.md#rate-limits-per-site) [ok twice](docs/guide.md#rate-limits-per-site-1)',
        '[ok here](#intake) [web](https://example.com/x.md#y) ![picture](docs/guide.md)',
        '[gone](docs/moved.md) [no heading](docs/guide.md#security) [folder](docs#x)',
        '| a | b |\n|---|---|\n| [in a table](#nowhere) | x |',
        '```md\n[in code](nowhere.md)\n```',
      ].join('\n\n'),
    );
    expect(brokenLinks(root, 'README.md')).toEqual([
      'docs/moved.md (no such file)',
      'docs/guide.md#security (no such heading)',
      'docs#x (an anchor on something not Markdown)',
      '#nowhere (no such heading)',
    ]);
    expect(brokenLinks(root, 'docs/guide.md')).toEqual([]);
  });
});

// The folder lists live next to the code (a README per workspace) and docs/architecture.md points
// at them; these keep both lists whole as folders come and go.
describe('the folder lists', () => {
  const workspaces = (
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }
  ).workspaces;

  it('docs/architecture.md has a row for every workspace', () => {
    const architecture = readFileSync(path.join(REPO_ROOT, 'docs/architecture.md'), 'utf8');
    expect(workspaces.filter((workspace) => !architecture.includes(`| \`${workspace}/\` |`))).toEqual([]);
  });

  it.each(['shared', 'gateway', 'admin-api'])('%s: its README names every folder of its src/', (workspace) => {
    const readme = readFileSync(path.join(REPO_ROOT, workspace, 'README.md'), 'utf8');
    const folders = readdirSync(path.join(REPO_ROOT, workspace, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !readme.includes(`\`${folder}/\``))).toEqual([]);
  });
});
