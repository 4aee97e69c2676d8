import { describe, expect, it } from '@jest/globals';
import { AppError } from '@intake/shared/errors';
import { EXECUTABLE_HEADS } from '@intake/test-files';
import { ArchiveBudget, DEFAULT_ARCHIVE_LIMITS } from './budget.js';
import {
  archiveKind,
  checkEntryHead,
  checkEntryName,
  checkEntryPath,
  isExecutableMagic,
  isExecutableName,
  isMacroName,
  isOle2Magic,
  isUnixSymlinkMode,
} from './entry-rules.js';

function codeOf(action: () => void): string | null {
  try {
    action();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
}

describe('checkEntryPath', () => {
  it.each(['a.txt', 'docs/a.txt', 'docs/', 'a..b.txt', '.hidden', 'docs/./a.txt', 'été/ß.txt', 'report 10.30.txt'])(
    'accepts %j',
    (name) => {
      expect(codeOf(() => checkEntryPath(name))).toBeNull();
      expect(codeOf(() => checkEntryPath(Buffer.from(name, 'utf8')))).toBeNull();
    },
  );

  it.each([
    '/etc/passwd',
    '//server/share/x',
    'C:/x',
    'c:x',
    'run.bat::$DATA',
    'x.vbs:',
    'docs/x.vbs:Zone.Identifier',
    'report 10:30.txt',
    '..',
    '../x',
    'a/../../x',
    'a/..',
    'a\\b',
    'a\0b',
    '',
    '... /x',
    '\uff0e\uff0e/x',
    '\uff0fetc/passwd',
    'a\uff3cb',
  ])('refuses %j', (name) => {
    expect(codeOf(() => checkEntryPath(name))).toBe('archive_path_traversal');
    expect(codeOf(() => checkEntryPath(Buffer.from(name, 'utf8')))).toBe('archive_path_traversal');
  });

  it('refuses a raw backslash unless the name is in a legacy code page where it is a trail byte', () => {
    // Shift-JIS 表 is 0x95 0x5C: a character in CP932, a separator to a CP437 extractor.
    const name = Buffer.from([0x95, 0x5c, 0x2e, 0x74, 0x78, 0x74]);
    expect(codeOf(() => checkEntryPath(name))).toBe('archive_path_traversal');
    expect(codeOf(() => checkEntryPath(name, { legacyCodePage: true }))).toBeNull();
    expect(codeOf(() => checkEntryPath(Buffer.from('a\\b.txt'), { legacyCodePage: true }))).toBe(
      'archive_path_traversal',
    );
  });
});

describe('names', () => {
  it.each([
    'a.exe',
    'A.EXE',
    'a.txt.exe',
    'a.exe.',
    'a.exe  ',
    'lib/x.dll',
    'run.sh',
    'x.jar',
    'x.msi',
    'x.lnk',
    'x.js',
    'X.app/',
    'x.ｅｘｅ',
    'help.chm',
    'notes.one',
    'notes.onepkg',
    'x.settingcontent-ms',
    'x.appinstaller',
    'x.library-ms',
    'x.search-ms',
    'x.searchconnector-ms',
    'types.ps1xml',
    'console.psc1',
    'page.hta',
    'page.html',
    'page.htm',
    'page.mht',
    'page.mhtml',
    'drawing.svg',
    'word/drawing.svg',
    'word/media/page.html',
    'docs/afchunk.mht',
    'index.php',
    'default.asp',
    'default.aspx',
    'index.jsp',
    'tool.py',
    'tool.pl',
    'tool.rb',
    'run.bat::$DATA',
    'x.vbs:',
    'x.vbs:hidden.txt',
  ])('flags %j as executable', (name) => {
    expect(isExecutableName(name)).toBe(true);
    expect(codeOf(() => checkEntryName(name))).toBe('archive_executable');
  });

  it.each([
    'a.txt',
    'exe',
    'word/vbaProject.bin.txt',
    'xl/printerSettings/printerSettings1.bin',
    'word/embeddings/oleObject1.bin',
    'a.json',
    'photos.zip',
    'apps/readme.md',
    'word/media/image2.svg',
    'ppt/media/image1.SVG',
    'word/afchunk.mht',
    'word/htmlChunk1.html',
    'site.cer',
  ])('does not flag %j', (name) => {
    expect(isExecutableName(name)).toBe(false);
    expect(codeOf(() => checkEntryName(name))).toBeNull();
  });

  it.each([
    'word/vbaProject.bin',
    'VBAPROJECT.BIN',
    'x/vbaData.xml',
    'book.xlsm',
    'deck.pptm',
    'letter.docm',
    'addin.xlam',
  ])('flags %j as a macro', (name) => {
    expect(isMacroName(name)).toBe(true);
    expect(codeOf(() => checkEntryName(name))).toBe('archive_macro');
  });
});

describe('magic bytes', () => {
  it.each(Object.entries(EXECUTABLE_HEADS))('recognises %s as executable', (_kind, head) => {
    expect(isExecutableMagic(head)).toBe(true);
    expect(codeOf(() => checkEntryHead(head))).toBe('archive_executable');
  });

  it('does not flag ordinary content', () => {
    for (const head of [
      Buffer.from('Hello'),
      Buffer.from('%PDF-1.7'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      Buffer.alloc(0),
      Buffer.from('M'),
    ]) {
      expect(isExecutableMagic(head)).toBe(false);
    }
  });

  it('names container formats', () => {
    expect(archiveKind(Buffer.from('PK\x03\x04', 'latin1'))).toBe('zip');
    expect(archiveKind(Buffer.from('PK\x05\x06', 'latin1'))).toBe('zip');
    expect(archiveKind(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]))).toBe('sevenzip');
    expect(archiveKind(Buffer.from('Rar!\x1a\x07\x01\x00', 'latin1'))).toBe('rar');
    expect(archiveKind(Buffer.from([0x1f, 0x8b, 8]))).toBe('gzip');
    const tar = Buffer.alloc(512);
    tar.write('ustar', 257, 'latin1');
    expect(archiveKind(tar)).toBe('tar');
    expect(archiveKind(Buffer.from('plain'))).toBeNull();
    expect(isOle2Magic(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe(true);
  });

  it('reads the symlink file type from Unix mode bits', () => {
    expect(isUnixSymlinkMode(0o120777)).toBe(true);
    expect(isUnixSymlinkMode(0o100644)).toBe(false);
    expect(isUnixSymlinkMode(0o040755)).toBe(false);
  });
});

describe('ArchiveBudget', () => {
  const limits = {
    ...DEFAULT_ARCHIVE_LIMITS,
    maxEntries: 3,
    maxTotalUncompressedBytes: 1000,
    maxRatio: 10,
    ratioGraceBytes: 100,
  };

  it('counts entries across nested archives', () => {
    const budget = new ArchiveBudget(limits);
    budget.addEntry();
    const nested = budget.nested();
    nested.addEntry();
    nested.addEntry();
    expect(codeOf(() => budget.addEntry())).toBe('archive_bomb');
  });

  it('refuses an announced count over the limit', () => {
    expect(codeOf(() => new ArchiveBudget(limits).checkAnnouncedEntries(4))).toBe('archive_bomb');
  });

  it('sums declared and actual bytes separately', () => {
    const budget = new ArchiveBudget(limits);
    budget.addDeclared(100, 600);
    expect(codeOf(() => budget.addDeclared(100, 500))).toBe('archive_bomb');
    budget.addActual(1000);
    expect(codeOf(() => budget.addActual(1))).toBe('archive_bomb');
  });

  it('applies the ratio only past the grace size', () => {
    const budget = new ArchiveBudget(limits);
    expect(codeOf(() => budget.checkRatio(1, 100))).toBeNull();
    expect(codeOf(() => budget.checkRatio(20, 200))).toBeNull();
    expect(codeOf(() => budget.checkRatio(19, 200))).toBe('archive_bomb');
    expect(codeOf(() => budget.checkRatio(0, 101))).toBe('archive_bomb');
  });

  it('refuses nesting deeper than the limit', () => {
    const budget = new ArchiveBudget({ ...limits, maxNestingDepth: 2 });
    const second = budget.nested();
    expect(second.depth).toBe(2);
    expect(codeOf(() => second.nested())).toBe('archive_bomb');
  });
});
