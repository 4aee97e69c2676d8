// Parses the technical listing of `7z l -slt`. The listing is text that holds submitted names, so it
// is read strictly: any line that is not a known shape (a warning, an error, a name that broke the
// layout) makes the whole listing unusable, and the caller refuses the archive. 7-Zip replaces
// control characters in names with `_`, so a name cannot start a line of its own; multi-line values
// (comments) are printed between `{` and `}` and skipped, and a comment that closes its braces early
// leaves a stray line behind, which is refused like any other.

/** One archive entry, as the listing describes it. */
export interface SevenZipEntry {
  path: string;
  isDirectory: boolean;
  /** Declared size; undefined when the format does not say (a gzip stream, an unknown size). */
  size: number | undefined;
  /** Packed size; undefined inside a solid block (only the block's first entry carries it). */
  packedSize: number | undefined;
  /** The solid block the entry's data sits in (7z), if any. */
  block: string | undefined;
  isLink: boolean;
  isEncrypted: boolean;
  /** `Host OS` of RAR entries (`Win32`, `Unix`…), undefined for other formats. */
  hostOs: string | undefined;
}

/** The listing's verdict on the archive as a whole. */
export interface SevenZipListing {
  /** 7-Zip's format name: `7z`, `Rar`, `Rar5`, `zip`, `gzip`, `tar`… */
  type: string;
  /** Why the listing cannot be trusted (warnings, errors, encrypted headers, odd lines); empty when fine. */
  problems: string[];
  entries: SevenZipEntry[];
}

const SEPARATOR = '----------';
const PROPERTY = /^([A-Za-z0-9][\w .()/-]*?) = (.*)$/u;
// Archive-level properties that mean the archive is not one whole, plain file.
const PROBLEM_KEYS = new Set(['Error', 'Errors', 'Warning', 'Warnings', 'Tail Size']);
const LINK_KEYS = ['Symbolic Link', 'Hard Link', 'Copy Link', 'Link'];

type Block = Map<string, string>;

interface Sections {
  archive: Block;
  entries: Block[];
  problems: string[];
}

function parseNumber(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/u.test(value)) {
    return undefined;
  }
  return Number(value);
}

interface Attributes {
  /** Letters of the Windows attributes (`RHS8DAdNTsLCOnE_`). */
  windows: string;
  /** `ls`-style Unix mode (`-rw-r--r--`), or empty. */
  unix: string;
}

/** `A -rw-r--r--`, `D drwxr-xr-x`, ` lrwxrwxrwx`, `RHSL`, `V 01800000 0rw-------`. */
function parseAttributes(text: string): Attributes {
  const parts = text.split(' ');
  const last = parts.length > 1 ? (parts[parts.length - 1] ?? '') : '';
  return { windows: parts[0] ?? '', unix: /^.[r-][w-][xsS-]/u.test(last) ? last : '' };
}

function toEntry(block: Block): SevenZipEntry {
  const attributes = parseAttributes(block.get('Attributes') ?? '');
  const mode = block.get('Mode') ?? '';
  return {
    path: block.get('Path') ?? '',
    isDirectory:
      block.get('Folder') === '+' ||
      attributes.windows.includes('D') ||
      attributes.unix.startsWith('d') ||
      mode.startsWith('d'),
    size: parseNumber(block.get('Size')),
    packedSize: parseNumber(block.get('Packed Size')),
    block: block.get('Block') || undefined,
    // `L` is FILE_ATTRIBUTE_REPARSE_POINT: a Windows symlink or junction.
    isLink:
      attributes.windows.includes('L') ||
      attributes.unix.startsWith('l') ||
      mode.startsWith('l') ||
      LINK_KEYS.some((key) => (block.get(key) ?? '') !== ''),
    isEncrypted: block.get('Encrypted') === '+',
    hostOs: block.get('Host OS') || undefined,
  };
}

/** Splits the lines after `Listing archive:` into the archive block and the entry blocks. */
function split(lines: readonly string[]): Sections {
  const problems: string[] = [];
  const archive: Block = new Map();
  const entries: Block[] = [];
  const start = lines.findIndex((line) => line.startsWith('Listing archive: '));
  if (start < 0) {
    return { archive, entries, problems: ['no listing'] };
  }
  let section: 'preamble' | 'archive' | 'entries' = 'preamble';
  let current: Block | undefined;
  let lastKey: string | undefined;
  let inBraces = false;
  for (const line of lines.slice(start + 1)) {
    if (inBraces) {
      inBraces = line !== '}';
      continue;
    }
    if (line === '') {
      current = undefined;
      lastKey = undefined;
      continue;
    }
    if (section === 'preamble') {
      if (line !== '--') {
        problems.push('unexpected line before the archive properties');
      }
      section = 'archive';
      current = archive;
      continue;
    }
    if (line === SEPARATOR) {
      if (section === 'entries') {
        problems.push('second entry separator');
      }
      section = 'entries';
      current = undefined;
      continue;
    }
    if (line === '{' && lastKey !== undefined && current?.get(lastKey) === '') {
      inBraces = true;
      continue;
    }
    const match = PROPERTY.exec(line);
    if (match === null) {
      problems.push('unexpected line');
      continue;
    }
    const key = match[1] ?? '';
    const value = match[2] ?? '';
    if (current === undefined) {
      if (section !== 'entries' || key !== 'Path') {
        problems.push('property outside a block');
        continue;
      }
      current = new Map();
      entries.push(current);
    }
    if (current.has(key)) {
      problems.push('repeated property');
    }
    current.set(key, value);
    lastKey = key;
  }
  if (inBraces) {
    problems.push('unterminated multi-line value');
  }
  return { archive, entries, problems };
}

/** Parses `7z l -slt` standard output, line by line. */
export function parseListing(lines: readonly string[]): SevenZipListing {
  const { archive, entries, problems } = split(lines);
  for (const [key, value] of archive) {
    if (PROBLEM_KEYS.has(key) && value !== '') {
      problems.push(`archive property ${key}`);
    }
  }
  // The archive must start at the first byte (no self-extractor stub or prefixed junk) and stand alone.
  if ((parseNumber(archive.get('Offset')) ?? 0) !== 0) {
    problems.push('archive starts at an offset');
  }
  if (archive.get('Encrypted') === '+') {
    problems.push('encrypted archive headers');
  }
  if (archive.get('Multivolume') === '+' || (parseNumber(archive.get('Volumes')) ?? 1) > 1) {
    problems.push('multi-volume archive');
  }
  return { type: archive.get('Type') ?? '', problems, entries: entries.map(toEntry) };
}
