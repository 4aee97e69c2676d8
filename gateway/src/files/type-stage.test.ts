import { crc32, deflateSync } from 'node:zlib';
import CFB from 'cfb';
import { describeWithRealPart } from '@intake/shared/test';
import { FileTypeParser } from 'file-type';
import type { ReceivedFile } from './types.js';
import { detectType } from './type-stage.js';
import {
  DEFAULT_ALLOWED_MIME_TYPES,
  MIME_DOCX,
  MIME_JPEG,
  MIME_PDF,
  MIME_PNG,
  MIME_TEXT,
  MIME_XLSX,
  MIME_ZIP,
} from '@intake/shared/mime-types';
import {
  docx,
  gif,
  jpeg,
  makeSampleDir,
  minimalRarSignatureFile,
  OOXML_MAIN_CONTENT_TYPES,
  pdf,
  png,
  pptx,
  receivedFile,
  removeSampleDir,
  SAMPLE_TYPES,
  sevenZip,
  text,
  webp,
  xlsx,
  zip,
  zipOf,
  EXECUTABLE_HEADS,
} from '@intake/test-files';
import { buildRar } from '../test/rar-writer.js';
import { sevenZipOf } from '../test/sevenzip-samples.js';
import { READ_BACK_WINDOW_BYTES } from './appended-archive.js';
import { ZIP_END_SEARCH_BYTES } from './archive/zip-end.js';
import { namesListedBy, pythonZip, zipToolsPart } from '../test/zip-tools.js';

let dir: string;

beforeAll(async () => {
  dir = await makeSampleDir();
});

afterAll(async () => {
  await removeSampleDir(dir);
});

async function received(name: string, bytes: Buffer): Promise<ReceivedFile> {
  return receivedFile(dir, name, bytes);
}

async function typeOf(name: string, bytes: Buffer, allowed: readonly string[] = DEFAULT_ALLOWED_MIME_TYPES) {
  return detectType(await received(name, bytes), allowed);
}

async function refusal(name: string, bytes: Buffer, allowed: readonly string[] = DEFAULT_ALLOWED_MIME_TYPES) {
  return typeOf(name, bytes, allowed).then(
    () => {
      throw new Error(`${JSON.stringify(name)} was accepted`);
    },
    (error: unknown) => error as { code: string; status: number; message: string },
  );
}

/** An OLE2 compound file (the pre-2007 Office container) with one stream. */
function ole2(): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, 'WordDocument', Buffer.from('not really a Word document'));
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

describe('detectType: the 12 default types', () => {
  it.each(SAMPLE_TYPES.map((sample) => [sample.mimeType, sample] as const))(
    'accepts a %s sample',
    async (mimeType, sample) => {
      const bytes = await sample.build();
      const file = await received(`sample.${sample.extension}`, bytes);
      await expect(detectType(file, DEFAULT_ALLOWED_MIME_TYPES)).resolves.toEqual({
        ...file,
        mimeType,
        extension: sample.extension,
        name: `sample.${sample.extension}`,
      });
    },
  );

  it.each(SAMPLE_TYPES.map((sample) => [sample.mimeType, sample] as const))(
    'refuses a %s sample when the form does not allow its type',
    async (mimeType, sample) => {
      const narrowed = DEFAULT_ALLOWED_MIME_TYPES.filter((type) => type !== mimeType);
      const error = await refusal(`sample.${sample.extension}`, await sample.build(), narrowed);
      expect(error).toMatchObject({ code: 'file_type_not_allowed', status: 400 });
    },
  );

  it('accepts a type the narrowed list keeps', async () => {
    await expect(typeOf('photo.png', png(), [MIME_PNG])).resolves.toMatchObject({ mimeType: MIME_PNG });
  });
});

describe('detectType: a small file is read whole, once', () => {
  it('judges each file as it does when streaming it', async () => {
    const cases: [string, Buffer][] = [
      ...(await Promise.all(
        SAMPLE_TYPES.map(async (sample): Promise<[string, Buffer]> => [
          `sample.${sample.extension}`,
          await sample.build(),
        ]),
      )),
      ['photo.jpg', png()],
      ['photo.png', Buffer.concat([png(), await zipOf({ 'run.exe': EXECUTABLE_HEADS.pe })])],
      ['anim.gif', Buffer.concat([gif(), buildRar([{ name: 'run.exe', data: EXECUTABLE_HEADS.pe }])])],
      ['empty.png', Buffer.alloc(0)],
    ];
    const verdict = (file: ReceivedFile) =>
      detectType(file, DEFAULT_ALLOWED_MIME_TYPES).then(
        (typed) => typed.mimeType,
        (error: { code: string }) => error.code,
      );
    for (const [name, bytes] of cases) {
      const file = await received(name, bytes);
      // A size past the whole-read limit makes the same file go the streaming way.
      expect([name, await verdict(file)]).toEqual([name, await verdict({ ...file, size: Number.MAX_SAFE_INTEGER })]);
    }
  });
});

describe('detectType: many files at once', () => {
  it('tells each file its own type when detections overlap (as concurrent uploads do)', async () => {
    const samples: [string, Buffer, string][] = [
      ['photo.png', png(), 'image/png'],
      ['scan.pdf', pdf(200_000), 'application/pdf'],
      ['notes.txt', text('hello\n'.repeat(20_000)), 'text/plain'],
      ['picture.gif', gif(), 'image/gif'],
    ];
    const files = await Promise.all(
      Array.from({ length: 40 }, (_, index) => samples[index % samples.length]!).map(async ([name, bytes, type]) => ({
        file: await received(name, bytes),
        type,
      })),
    );
    const detected = await Promise.all(files.map(({ file }) => detectType(file, DEFAULT_ALLOWED_MIME_TYPES)));
    expect(detected.map((typed) => typed.mimeType)).toEqual(files.map(({ type }) => type));
  });
});

describe('detectType: the extension', () => {
  it.each(['photo.jpg', 'photo.jpeg', 'PHOTO.JPG', 'Photo.JpEg'])('reads %s as image/jpeg', async (name) => {
    await expect(typeOf(name, jpeg())).resolves.toMatchObject({ mimeType: MIME_JPEG });
  });

  it('ignores trailing dots and spaces, and stores the cleaned name', async () => {
    await expect(typeOf('report.PDF. ', pdf())).resolves.toMatchObject({
      mimeType: MIME_PDF,
      extension: 'pdf',
      name: 'report.PDF',
    });
  });

  it('judges a double extension by the last one', async () => {
    await expect(typeOf('photo.exe.png', png())).resolves.toMatchObject({ mimeType: MIME_PNG, extension: 'png' });
    await expect(refusal('invoice.pdf.exe', pdf())).resolves.toMatchObject({ code: 'file_type_not_allowed' });
    await expect(refusal('backup.tar.gz', await zip())).resolves.toMatchObject({ code: 'file_type_not_allowed' });
    // Named text, so judged as text: a PDF is not UTF-8 text.
    await expect(refusal('invoice.pdf.txt', pdf())).resolves.toMatchObject({ code: 'file_type_mismatch' });
  });

  it.each(['README', 'data.csv', 'run.exe', 'page.html', 'image.svg', 'x.constructor', 'file.'])(
    'refuses %j: not an extension of an allowed type',
    async (name) => {
      await expect(refusal(name, text())).resolves.toMatchObject({ code: 'file_type_not_allowed' });
    },
  );

  it('judges the name without its path and bidirectional overrides', async () => {
    await expect(typeOf('C:\\Users\\me\\scan.png', png())).resolves.toMatchObject({
      name: 'scan.png',
      mimeType: MIME_PNG,
    });
    // Shown as `invoiceexe.pdf`, it is an `.exe`.
    await expect(refusal('invoice\u202Efdp.exe', pdf())).resolves.toMatchObject({ code: 'file_type_not_allowed' });
  });

  it('refuses a name holding NUL or a control character as a malformed body', async () => {
    await expect(refusal('photo\u0000.png', png())).resolves.toMatchObject({ code: 'body_invalid' });
    await expect(refusal('photo\r\n.png', png())).resolves.toMatchObject({ code: 'body_invalid' });
  });

  it('compares the allowed list case-insensitively', async () => {
    await expect(typeOf('photo.png', png(), ['IMAGE/PNG'])).resolves.toMatchObject({ mimeType: MIME_PNG });
  });

  it('never echoes the submitted name in an error detail', async () => {
    const notAllowed = await refusal('secret-plan.exe', pdf());
    const mismatch = await refusal('secret-plan.png', pdf());
    expect(notAllowed.message).not.toContain('secret');
    expect(mismatch.message).not.toContain('secret');
  });
});

describe('detectType: the content must agree with the extension', () => {
  it.each([
    ['a PDF named .jpg', 'photo.jpg', () => pdf()],
    ['an MZ executable named .png', 'photo.png', () => Buffer.concat([Buffer.from('MZ'), Buffer.alloc(126)])],
    ['a PNG named .gif', 'anim.gif', () => png()],
    ['a GIF named .webp', 'image.webp', () => gif()],
    ['a JPEG named .pdf', 'scan.pdf', () => jpeg()],
    ['a 7z named .rar', 'archive.rar', () => sevenZip()],
    ['a RAR named .7z', 'archive.7z', () => minimalRarSignatureFile()],
    ['a zip named .rar', 'archive.rar', () => zip()],
    ['text named .pdf', 'report.pdf', () => text('A report, but plain text.\n')],
    ['an OLE2 (.doc) file named .docx', 'letter.docx', () => ole2()],
    ['an OLE2 file named .xlsx', 'sheet.xlsx', () => ole2()],
    ['a plain zip named .docx', 'letter.docx', () => zip()],
    ['a plain zip named .pptx', 'slides.pptx', () => zip()],
    ['an XLSX named .docx', 'letter.docx', () => xlsx()],
    ['a DOCX named .pptx', 'slides.pptx', () => docx()],
    ['a PDF named .zip', 'archive.zip', () => pdf()],
    ['a PNG named .txt', 'notes.txt', () => png()],
  ])('refuses %s', async (_, name, build) => {
    await expect(refusal(name, await build())).resolves.toMatchObject({ code: 'file_type_mismatch', status: 400 });
  });

  it.each([
    'photo.png',
    'photo.jpg',
    'report.pdf',
    'letter.docx',
    'archive.zip',
    'archive.rar',
    'archive.7z',
    'image.webp',
  ])('refuses an empty file named %s', async (name) => {
    await expect(refusal(name, Buffer.alloc(0))).resolves.toMatchObject({ code: 'file_type_mismatch' });
  });

  it('accepts an empty .txt as empty text', async () => {
    await expect(typeOf('empty.txt', Buffer.alloc(0))).resolves.toMatchObject({ mimeType: MIME_TEXT, size: 0 });
  });

  it('accepts a DOCX named .zip as a zip: every OOXML document is one, and the archive stage inspects it', async () => {
    await expect(typeOf('letter.zip', await docx())).resolves.toMatchObject({ mimeType: MIME_ZIP });
  });

  it('accepts an empty zip (end of central directory only)', async () => {
    await expect(typeOf('empty.zip', await zipOf({}))).resolves.toMatchObject({ mimeType: MIME_ZIP });
  });
});

describe('detectType: OOXML packages', () => {
  it('recognises each document by its main part, not by file-type', async () => {
    await expect(typeOf('letter.docx', await docx())).resolves.toMatchObject({ mimeType: MIME_DOCX });
    await expect(typeOf('sheet.xlsx', await xlsx())).resolves.toMatchObject({ mimeType: MIME_XLSX });
    await expect(typeOf('slides.pptx', await pptx())).resolves.toMatchObject({
      mimeType: expect.stringContaining('presentationml'),
    });
  });

  it.each([
    [
      'a macro-enabled Word document named .docx',
      'letter.docx',
      () => docx({ mainContentType: OOXML_MAIN_CONTENT_TYPES.docm }),
    ],
    [
      'a macro-enabled workbook named .xlsx',
      'sheet.xlsx',
      () => xlsx({ mainContentType: OOXML_MAIN_CONTENT_TYPES.xlsm }),
    ],
    [
      'a macro-enabled presentation named .pptx',
      'slides.pptx',
      () => pptx({ mainContentType: OOXML_MAIN_CONTENT_TYPES.pptm }),
    ],
  ])('refuses %s as a macro document', async (_, name, build) => {
    await expect(refusal(name, await build())).resolves.toMatchObject({ code: 'archive_macro' });
  });

  it('refuses a Word template named .docx (another OOXML type)', async () => {
    const template = await docx({
      mainContentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml',
    });
    await expect(refusal('letter.docx', template)).resolves.toMatchObject({ code: 'file_type_mismatch' });
  });

  it('refuses a zip that only claims a content type without a main part relationship', async () => {
    const fake = await zipOf({
      '[Content_Types].xml': `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="${OOXML_MAIN_CONTENT_TYPES.docx}"/></Types>`,
      'word/document.xml': '<w:document/>',
    });
    await expect(refusal('letter.docx', fake)).resolves.toMatchObject({ code: 'file_type_mismatch' });
  });

  it('refuses a package over the entry limit as a bomb, without scanning it', async () => {
    const file = await received('letter.docx', await docx());
    await expect(
      detectType(file, DEFAULT_ALLOWED_MIME_TYPES, { ooxmlLimits: { maxEntries: 2, maxPartBytes: 1024 } }),
    ).rejects.toMatchObject({ code: 'archive_bomb' });
  });

  it('refuses a truncated DOCX as unreadable', async () => {
    const whole = await docx();
    await expect(refusal('letter.docx', whole.subarray(0, whole.length - 30))).resolves.toMatchObject({
      code: 'archive_unreadable',
    });
  });
});

describe('detectType: text/plain', () => {
  it('accepts UTF-8 with a BOM', async () => {
    await expect(typeOf('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text()]))).resolves.toMatchObject({
      mimeType: MIME_TEXT,
    });
  });

  it('accepts text longer than one read, with a character across the chunk boundary', async () => {
    const content = `${'a'.repeat(64 * 1024 - 1)}€${'b'.repeat(100_000)}`;
    await expect(typeOf('long.txt', text(content))).resolves.toMatchObject({ mimeType: MIME_TEXT });
  });

  it.each([
    ['a NUL byte', Buffer.from('hello\u0000world', 'utf8')],
    ['a NUL byte after the first chunk', Buffer.concat([Buffer.alloc(200_000, 0x61), Buffer.from([0])])],
    ['an invalid byte (0xFF)', Buffer.from([0x68, 0x69, 0xff, 0x0a])],
    ['Latin-1 text', Buffer.from('Relevé de comptes', 'latin1')],
    ['a lone surrogate (ED A0 80)', Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62])],
    ['an overlong NUL (C0 80)', Buffer.from([0x61, 0xc0, 0x80])],
    ['a sequence cut at the end', Buffer.from([0x61, 0xe2, 0x82])],
    ['UTF-16 text', Buffer.from('\uFEFFhello', 'utf16le')],
  ])('refuses text holding %s', async (_, bytes) => {
    await expect(refusal('notes.txt', bytes)).resolves.toMatchObject({ code: 'file_type_mismatch' });
  });

  it('refuses text that file-type recognises as another format', async () => {
    await expect(refusal('notes.txt', text('<?xml version="1.0"?><notes/>'))).resolves.toMatchObject({
      code: 'file_type_mismatch',
    });
    await expect(refusal('notes.txt', text('{\\rtf1 hello}'))).resolves.toMatchObject({ code: 'file_type_mismatch' });
  });
});

describe('archives appended to images and PDFs (polyglots)', () => {
  const program = (): Promise<Buffer> => zipOf({ 'run.exe': EXECUTABLE_HEADS.pe });

  it('refuses a zip holding a program appended after IEND or %%EOF', async () => {
    for (const [name, bytes] of [
      ['photo.png', png()],
      ['report.pdf', pdf()],
      ['photo.jpg', jpeg()],
      ['anim.gif', gif()],
    ] as const) {
      const error = await refusal(name, Buffer.concat([bytes, await program()]));
      expect(error).toMatchObject({ code: 'file_type_mismatch', status: 400 });
    }
  });

  it('refuses an appended zip even when its comment ends in %%EOF', async () => {
    const zipped = await program();
    // The comment length is the last two bytes of the end-of-central-directory record.
    const withComment = Buffer.concat([zipped.subarray(0, -2), Buffer.from([7, 0]), Buffer.from('\n%%EOF\n')]);
    expect(await refusal('report.pdf', Buffer.concat([pdf(), withComment]))).toMatchObject({
      code: 'file_type_mismatch',
    });
  });

  it('refuses a RAR or a 7z appended to an image', async () => {
    const rar = buildRar([{ name: 'run.exe', data: EXECUTABLE_HEADS.pe }]);
    expect(await refusal('photo.png', Buffer.concat([png(), rar]))).toMatchObject({ code: 'file_type_mismatch' });
    const sevenZ = await sevenZipOf([{ name: 'run.exe', data: EXECUTABLE_HEADS.pe }]);
    expect(await refusal('photo.jpg', Buffer.concat([jpeg(), sevenZ]))).toMatchObject({ code: 'file_type_mismatch' });
  });

  it('finds a RAR across the boundary of two reads of a big file, and far into it', async () => {
    const rar = buildRar([{ name: 'run.exe', data: EXECUTABLE_HEADS.pe }]);
    // A file not checked as it streamed in is read back in windows of this size.
    const window = READ_BACK_WINDOW_BYTES;
    for (const at of [window - 3, 3 * window + 1000]) {
      const before = Buffer.alloc(at - png().length, 0x20);
      // A file this big is streamed. Padding after the RAR keeps it out of the last bytes, read first.
      const file = Buffer.concat([png(), before, rar, Buffer.alloc(2 * ZIP_END_SEARCH_BYTES, 0x20)]);
      expect(await refusal('photo.png', file)).toMatchObject({ code: 'file_type_mismatch' });
    }
    const clean = Buffer.concat([png(), Buffer.alloc(4 * window, 0x20)]);
    await expect(typeOf('photo.png', clean)).resolves.toMatchObject({ mimeType: MIME_PNG });
  });

  it('accepts stray bytes after IEND, an incremental PDF update, and a zip deep inside a PDF stream', async () => {
    await expect(typeOf('photo.png', Buffer.concat([png(), Buffer.from('\0\0\n')]))).resolves.toMatchObject({
      mimeType: MIME_PNG,
    });
    const update = Buffer.from('\n1 0 obj\n<< >>\nendobj\ntrailer\n<< /Size 2 >>\n%%EOF\n');
    await expect(typeOf('report.pdf', Buffer.concat([pdf(), update]))).resolves.toMatchObject({ mimeType: MIME_PDF });
    // An attachment stored uncompressed, its end record further from the end than ZIP readers look.
    const embedded = (after: Buffer) =>
      Buffer.concat([
        pdf(),
        Buffer.from('\n9 0 obj\n<< /Length 1 >>\nstream\n'),
        zipped,
        Buffer.from('\nendstream\nendobj\n'),
        after,
        Buffer.from('\n%%EOF\n'),
      ]);
    const zipped = await program();
    const farFromTheEnd = Buffer.from(
      `10 0 obj\n<< /Length 90000 >>\nstream\n${'q Q\n'.repeat(22_500)}endstream\nendobj`,
    );
    await expect(typeOf('report.pdf', embedded(farFromTheEnd))).resolves.toMatchObject({ mimeType: MIME_PDF });
    // Near the end, Python's zipfile and unzip open the PDF as that zip: refused.
    expect(await refusal('report.pdf', embedded(Buffer.alloc(0)))).toMatchObject({ code: 'file_type_mismatch' });
  });

  it('sees a zip appended to an image even with a stray byte after it', async () => {
    const appended = Buffer.concat([png(), await zip(), Buffer.from('\n')]);
    expect(await refusal('photo.png', appended)).toMatchObject({ code: 'file_type_mismatch' });
  });
});

describe('stray bytes after the end of a zip', () => {
  it('types DOCX, XLSX and PPTX with a byte or two after the end record, as Office opens them', async () => {
    await expect(typeOf('a.docx', Buffer.concat([await docx(), Buffer.from('\n')]))).resolves.toMatchObject({
      mimeType: MIME_DOCX,
    });
    await expect(typeOf('a.xlsx', Buffer.concat([await xlsx(), Buffer.from([0, 0])]))).resolves.toMatchObject({
      mimeType: MIME_XLSX,
    });
    await expect(typeOf('a.pptx', Buffer.concat([await pptx(), Buffer.from('\r\n')]))).resolves.toMatchObject({
      mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    });
  });

  it('still refuses a document with more than a few bytes after the end record', async () => {
    expect(await refusal('a.docx', Buffer.concat([await docx(), Buffer.alloc(64, 0x41)]))).toMatchObject({
      code: 'archive_unreadable',
    });
  });
});

describe('file-type throwing on content', () => {
  // No input found makes file-type 22 throw (its detectors return undefined on malformed input);
  // a detector of our own that throws, run by file-type's real parser, takes the same path.
  const throwingParser = () =>
    new FileTypeParser({
      customDetectors: [
        {
          id: 'throws-on-marker',
          detect: async (tokenizer) => {
            const head = new Uint8Array(6);
            await tokenizer.peekBuffer(head, { mayBeLess: true });
            if (Buffer.from(head).toString('latin1') === 'THROW!') {
              throw new RangeError('detector failed on this content');
            }
            return undefined;
          },
        },
      ],
    });

  it('answers 400 file_type_mismatch, for magic-byte types and for text', async () => {
    for (const name of ['photo.png', 'notes.txt']) {
      const error = await detectType(await received(name, Buffer.from('THROW! and more')), DEFAULT_ALLOWED_MIME_TYPES, {
        fileTypeParser: throwingParser,
      }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'file_type_mismatch', status: 400 });
    }
  });

  it('keeps an I/O failure on its own file a server fault', async () => {
    const file = { ...(await received('photo.png', png())), path: `${dir}/missing.png` };
    const error = await detectType(file, DEFAULT_ALLOWED_MIME_TYPES).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'ENOENT' });
  });
});

describe('the verdicts of the upload single pass (ReceivedFile.streamed)', () => {
  // An upload's whole-file checks are taken as it streams in (streamed-checks.ts); the type stage
  // then reads only the file's head and tail. These files' bytes say one thing and their streamed
  // verdicts another: the verdicts are what decide, so the file was not read back.
  const big = (head: Buffer) => Buffer.concat([head, Buffer.alloc(2 * ZIP_END_SEARCH_BYTES, 0x20)]);

  it('refuses an image whose stream held an archive signature, and takes a clean one without reading it', async () => {
    const file = await received('photo.png', big(png()));
    const seen = {
      ...file,
      streamed: { archiveSignature: 'rar' as const, zipAfterEnd: false, text: { ok: true as const } },
    };
    await expect(detectType(seen, DEFAULT_ALLOWED_MIME_TYPES)).rejects.toMatchObject({ code: 'file_type_mismatch' });
    const rar = buildRar([{ name: 'run.exe', data: EXECUTABLE_HEADS.pe }]);
    const polyglot = await received('photo.png', big(Buffer.concat([png(), rar])));
    const clean = {
      ...polyglot,
      streamed: { archiveSignature: null, zipAfterEnd: false, text: { ok: false as const, reason: 'nul' as const } },
    };
    await expect(detectType(clean, DEFAULT_ALLOWED_MIME_TYPES)).resolves.toMatchObject({ mimeType: MIME_PNG });
  });

  it('takes the streamed signature verdict for a small file too, read whole only for its type and zip tail', async () => {
    const small = await received('photo.png', png());
    const seen = {
      ...small,
      streamed: { archiveSignature: 'sevenzip' as const, zipAfterEnd: false, text: { ok: true as const } },
    };
    await expect(detectType(seen, DEFAULT_ALLOWED_MIME_TYPES)).rejects.toMatchObject({ code: 'file_type_mismatch' });
    const rar = buildRar([{ name: 'run.exe', data: EXECUTABLE_HEADS.pe }]);
    const polyglot = await received('photo.png', Buffer.concat([png(), rar]));
    const unseen = {
      ...polyglot,
      streamed: { archiveSignature: null, zipAfterEnd: false, text: { ok: true as const } },
    };
    await expect(detectType(unseen, DEFAULT_ALLOWED_MIME_TYPES)).resolves.toMatchObject({ mimeType: MIME_PNG });
  });

  it('judges text by its streamed verdict', async () => {
    const file = await received('notes.txt', text());
    const refused = {
      ...file,
      streamed: { archiveSignature: null, zipAfterEnd: false, text: { ok: false as const, reason: 'nul' as const } },
    };
    await expect(detectType(refused, DEFAULT_ALLOWED_MIME_TYPES)).rejects.toMatchObject({
      code: 'file_type_mismatch',
      message: 'A text/plain file holds a NUL byte.',
    });
  });
});

describe('archives appended after more bytes, as real ZIP tools still open them (issue 32)', () => {
  const program = { 'run.exe': Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300)]) };
  const junk = (bytes: number): Buffer => Buffer.alloc(bytes, 0x5a);

  describeWithRealPart('built and opened by Python, unzip and 7-Zip', zipToolsPart(), () => {
    it('refuses a PNG with a zip and then 20 bytes of junk appended, which all three open', async () => {
      const polyglot = Buffer.concat([png(), pythonZip(program), junk(20)]);
      expect(await namesListedBy(polyglot)).toEqual({ python: ['run.exe'], unzip: ['run.exe'], sevenZip: ['run.exe'] });
      expect(await refusal('photo.png', polyglot)).toMatchObject({ code: 'file_type_mismatch', status: 400 });
    });

    it('refuses a zip followed by 100 KB of junk, past where Python and unzip look but not 7-Zip', async () => {
      const polyglot = Buffer.concat([png(), pythonZip(program), junk(100_000)]);
      expect((await namesListedBy(polyglot)).sevenZip).toEqual(['run.exe']);
      expect(await refusal('photo.png', polyglot)).toMatchObject({ code: 'file_type_mismatch' });
    });

    it('refuses it after a JPEG, a GIF, a WebP and a PDF too', async () => {
      for (const [name, bytes] of [
        ['photo.jpg', jpeg()],
        ['anim.gif', gif()],
        ['photo.webp', webp()],
        ['report.pdf', pdf()],
      ] as const) {
        const polyglot = Buffer.concat([bytes, pythonZip(program), junk(20)]);
        expect((await namesListedBy(polyglot)).python).toEqual(['run.exe']);
        expect(await refusal(name, polyglot)).toMatchObject({ code: 'file_type_mismatch' });
      }
    });

    it('refuses a zip hidden in a PNG chunk before IEND, whose end record Python finds', async () => {
      const image = png();
      const comment = pngChunk('tEXt', Buffer.from('Comment\0drawn by hand', 'latin1'));
      const hidden = Buffer.concat([
        image.subarray(0, -12),
        pngChunk('ziPp', pythonZip(program)),
        comment,
        image.subarray(-12),
      ]);
      expect((await namesListedBy(hidden)).python).toEqual(['run.exe']);
      expect(await refusal('photo.png', hidden)).toMatchObject({ code: 'file_type_mismatch' });
    });

    it('refuses a 7z or a RAR with junk after it, which 7-Zip opens', async () => {
      const sevenZ = Buffer.concat([
        jpeg(),
        await sevenZipOf([{ name: 'run.exe', data: program['run.exe'] }]),
        junk(20),
      ]);
      expect((await namesListedBy(sevenZ)).sevenZip).toEqual(['run.exe']);
      expect(await refusal('photo.jpg', sevenZ)).toMatchObject({ code: 'file_type_mismatch' });
      const rar = Buffer.concat([png(), buildRar([{ name: 'run.exe', data: program['run.exe'] }]), junk(20)]);
      expect(await refusal('photo.png', rar)).toMatchObject({ code: 'file_type_mismatch' });
    });
  });

  it('accepts images whose own data spells ZIP signatures, and a video kept after a JPEG', async () => {
    // Pixel bytes stored verbatim (deflate level 0) in IDAT, near the end: an end record whose
    // directory is not where it points, and a local header naming deflate.
    const endRecord = Buffer.from('PK\x05\x06\0\0\0\0\x01\0\x01\0\x40\0\0\0\x10\0\0\0\0\0', 'latin1');
    const localHeader = Buffer.from('PK\x03\x04\x14\0\0\0\x08\0', 'latin1');
    const pixels = Buffer.concat([Buffer.alloc(70_000, 0x80), endRecord, localHeader, Buffer.alloc(500, 0x40)]);
    const image = grayPng(pixels);
    expect(image.includes(endRecord) && image.includes(localHeader)).toBe(true);
    await expect(typeOf('photo.png', image)).resolves.toMatchObject({ mimeType: MIME_PNG });
    // After EOI, as phones keep a motion photo's video: bare signatures, none a whole ZIP record.
    const video = Buffer.concat([
      Buffer.from('\0\0\0\x18ftypmp42'),
      Buffer.from('PK\x03\x04\x14\0\0\0\xff\xff'),
      Buffer.from('PK\x05\x06\x01\0'),
    ]);
    await expect(typeOf('photo.jpg', Buffer.concat([jpeg(), video, Buffer.alloc(200_000, 7)]))).resolves.toMatchObject({
      mimeType: MIME_JPEG,
    });
  });
});

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A one-row 8-bit grey PNG of `pixels`, its IDAT deflated at level 0 so the bytes show verbatim. */
function grayPng(pixels: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(pixels.length, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  return Buffer.concat([
    png().subarray(0, 8),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat([Buffer.from([0]), pixels]), { level: 0 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
