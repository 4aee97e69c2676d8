import { describe, expect, it } from '@jest/globals';
import { parseListing } from './sevenzip-listing.js';

const PREAMBLE = [
  '',
  '7-Zip (z) 24.09 (LE) : Copyright (c) 1999-2024 Igor Pavlov : 2024-11-29',
  ' 32-bit ILP32 locale=en_US.UTF-8 Threads:1 OPEN_MAX:1024',
  '',
  'Scanning the drive for archives:',
  '1 file, 211 bytes (1 KiB)',
  '',
  'Listing archive: /intake/in-1',
  '',
  '--',
];

function listing(archive: string[], ...entries: string[][]): string[] {
  const lines = [...PREAMBLE, ...archive, '', '----------'];
  for (const entry of entries) {
    lines.push(...entry, '');
  }
  return lines;
}

const ARCHIVE_7Z = ['Path = /intake/in-1', 'Type = 7z', 'Physical Size = 211', 'Method = LZMA2:12', 'Blocks = 1'];

function entry(path: string, extra: string[] = []): string[] {
  return [`Path = ${path}`, 'Size = 6', 'Packed Size = 10', 'Attributes = A -rw-r--r--', 'Encrypted = -', ...extra];
}

describe('parseListing', () => {
  it('reads the format and every entry of a clean listing', () => {
    const parsed = parseListing(
      listing(
        ARCHIVE_7Z,
        ['Path = d', 'Size = 0', 'Packed Size = 0', 'Attributes = D drwxr-xr-x', 'Encrypted = -', 'Method = '],
        [...entry('d/a = b.txt'), 'Block = 0'],
        ['Path = d/c.txt', 'Size = 3', 'Packed Size = ', 'Attributes = A -rw-r--r--', 'Encrypted = -', 'Block = 0'],
      ),
    );
    expect(parsed.type).toBe('7z');
    expect(parsed.problems).toEqual([]);
    expect(parsed.entries).toEqual([
      { path: 'd', isDirectory: true, size: 0, packedSize: 0, block: undefined, isLink: false, isEncrypted: false },
      {
        path: 'd/a = b.txt',
        isDirectory: false,
        size: 6,
        packedSize: 10,
        block: '0',
        isLink: false,
        isEncrypted: false,
      },
      {
        path: 'd/c.txt',
        isDirectory: false,
        size: 3,
        packedSize: undefined,
        block: '0',
        isLink: false,
        isEncrypted: false,
      },
    ]);
  });

  it('reads an archive without entries', () => {
    expect(parseListing(listing(['Path = /intake/in-1', 'Type = 7z', 'Blocks = 0']))).toEqual({
      type: '7z',
      problems: [],
      entries: [],
    });
  });

  it('sees links in every form 7-Zip prints them', () => {
    const links = parseListing(
      listing(
        ['Path = x', 'Type = Rar5'],
        ['Path = a', 'Attributes =  lrwxrwxrwx', 'Symbolic Link = '],
        ['Path = b', 'Attributes = A', 'Symbolic Link = /etc/passwd'],
        ['Path = c', 'Attributes = AL'],
        ['Path = d', 'Mode = lrwxrwxrwx'],
        ['Path = e', 'Hard Link = other'],
        ['Path = f', 'Attributes = A', 'Symbolic Link = ', 'Hard Link = ', 'Copy Link = '],
      ),
    );
    expect(links.problems).toEqual([]);
    expect(links.entries.map((e) => e.isLink)).toEqual([true, true, true, true, true, false]);
  });

  it('reads encryption, unknown sizes and folders', () => {
    const parsed = parseListing(
      listing(
        ['Path = x', 'Type = Rar5'],
        ['Path = a', 'Folder = +', 'Size = 0', 'Encrypted = -'],
        ['Path = b', 'Folder = -', 'Size = ', 'Encrypted = +'],
      ),
    );
    expect(parsed.entries.map((e) => [e.isDirectory, e.size, e.isEncrypted])).toEqual([
      [true, 0, false],
      [false, undefined, true],
    ]);
  });

  it('reports warnings and errors around the archive', () => {
    const trailing = parseListing(
      listing(['Path = x', 'Type = 7z', 'WARNINGS:', 'There are data after the end of archive', 'Tail Size = 15']),
    );
    expect(trailing.problems.length).toBeGreaterThan(0);
    const errors = parseListing([...listing(ARCHIVE_7Z, entry('a.txt')), 'Errors: 1']);
    expect(errors.problems.length).toBeGreaterThan(0);
    expect(parseListing(listing([...ARCHIVE_7Z, 'Offset = 512'])).problems).toContain('archive starts at an offset');
    expect(parseListing(listing([...ARCHIVE_7Z, 'Encrypted = +'])).problems).toContain('encrypted archive headers');
    expect(parseListing(listing([...ARCHIVE_7Z, 'Volumes = 2'])).problems).toContain('multi-volume archive');
    expect(parseListing(['no listing at all']).problems).toEqual(['no listing']);
  });

  it('skips multi-line comments, even ones that look like entries', () => {
    const parsed = parseListing(
      listing(
        ['Path = x', 'Type = zip', 'Comment = ', '{', 'hello', '----------', 'Path = fake.txt', '}'],
        entry('real.exe'),
      ),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.entries.map((e) => e.path)).toEqual(['real.exe']);
  });

  it('refuses a comment that closes its braces early to inject lines', () => {
    const injected = listing(
      ['Path = x', 'Type = zip', 'Comment = ', '{', '}', '----------', 'Path = fake.txt', '}'],
      entry('real.exe'),
    );
    expect(parseListing(injected).problems.length).toBeGreaterThan(0);
  });

  it('refuses repeated properties and stray lines', () => {
    expect(parseListing(listing(ARCHIVE_7Z, [...entry('a.exe'), 'Path = b.txt'])).problems).toContain(
      'repeated property',
    );
    expect(parseListing(listing(ARCHIVE_7Z, [...entry('a.txt'), 'garbage'])).problems).toContain('unexpected line');
    expect(parseListing(listing(ARCHIVE_7Z, ['Size = 1', ...entry('a.txt')])).problems).toContain(
      'property outside a block',
    );
  });
});
