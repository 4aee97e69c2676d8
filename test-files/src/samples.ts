// Builders of small, structurally valid files of the 12 default types, made in code at test time so
// no binary fixture is committed. Every builder returns the bytes; `writeSample` and `receivedFile`
// put them on disk the way the multipart stage would.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import yazl from 'yazl';
import {
  MIME_7Z,
  MIME_DOCX,
  MIME_GIF,
  MIME_JPEG,
  MIME_PDF,
  MIME_PNG,
  MIME_PPTX,
  MIME_RAR,
  MIME_TEXT,
  MIME_WEBP,
  MIME_XLSX,
  MIME_ZIP,
} from '@intake/shared/mime-types';
import type { KnownMimeType } from '@intake/shared/mime-types';

// A fixed date keeps zip bytes identical from run to run.
const ZIP_MTIME = new Date('2024-01-01T00:00:00Z');

// ---------------------------------------------------------------------------------------- images

/** A 1×1 RGB PNG: signature, IHDR, zlib-compressed IDAT and IEND, each with its CRC. */
export function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  // compression, filter and interlace methods stay 0
  const scanline = Buffer.from([0, 0x33, 0x66, 0x99]); // filter byte, then one RGB pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 1×1 GIF89a: two-colour global table, one image, LZW data (clear, pixel 0, end), trailer. */
export function gif(): Buffer {
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00]), // 1×1, global table of 2 colours
    Buffer.from([0xff, 0xff, 0xff, 0x00, 0x00, 0x00]), // white, black
    Buffer.from([0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]), // image descriptor
    Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]), // LZW minimum code size 2, one 2-byte sub-block
    Buffer.from([0x3b]), // trailer
  ]);
}

/**
 * A 1×1 grey baseline JFIF: SOI, APP0, a quantisation table, SOF0, one-code DC and AC Huffman
 * tables, SOS and one 8×8 block (DC difference 0, end of block), EOI. Decodes to a mid-grey pixel.
 */
export function jpeg(): Buffer {
  const segment = (marker: number, body: number[]): number[] => {
    const length = body.length + 2;
    return [0xff, marker, length >> 8, length & 0xff, ...body];
  };
  const oneCodeTable = (classAndId: number): number[] => [classAndId, 1, ...new Array<number>(15).fill(0), 0x00];
  return Buffer.from([
    ...[0xff, 0xd8], // SOI
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]), // APP0 JFIF 1.1
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]), // DQT 0, all ones
    ...segment(0xc0, [0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]), // SOF0 8-bit 1×1, 1 component
    ...segment(0xc4, oneCodeTable(0x00)), // DHT DC 0: code `0` → category 0
    ...segment(0xc4, oneCodeTable(0x10)), // DHT AC 0: code `0` → end of block
    ...segment(0xda, [0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]), // SOS, component 1, tables 0/0, 0..63
    0x3f, // bits `00` (DC 0, EOB), padded with ones
    ...[0xff, 0xd9], // EOI
  ]);
}

/** A 1×1 lossless WebP (RIFF, `WEBP`, one `VP8L` chunk). */
export function webp(): Buffer {
  const vp8l = Buffer.from([0x2f, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07]);
  const chunkHeader = Buffer.alloc(8);
  chunkHeader.write('VP8L', 0, 'latin1');
  chunkHeader.writeUInt32LE(vp8l.length, 4);
  const chunk = Buffer.concat([chunkHeader, vp8l, Buffer.alloc(vp8l.length % 2)]); // chunks are padded to even
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + chunk.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, chunk]);
}

// ------------------------------------------------------------------------------------------- PDF

/**
 * A one-page PDF 1.4 with a correct cross-reference table. With `sizeBytes`, comment lines are
 * added after the header so the file is exactly that long (for upload-size tests).
 */
export function pdf(sizeBytes?: number): Buffer {
  const minimal = buildPdf('');
  if (sizeBytes === undefined || sizeBytes === minimal.length) {
    return minimal;
  }
  if (sizeBytes < minimal.length) {
    throw new RangeError(`A PDF cannot be smaller than ${minimal.length} bytes.`);
  }
  // The startxref number may gain a digit as the file grows: adjust until the length is exact.
  let padding = sizeBytes - minimal.length;
  for (;;) {
    const built = buildPdf(pdfPadding(padding));
    if (built.length === sizeBytes) {
      return built;
    }
    padding += sizeBytes - built.length;
  }
}

function pdfPadding(bytes: number): string {
  const line = `%${'x'.repeat(78)}\n`;
  const rest = bytes % line.length;
  const last = rest === 0 ? '' : rest === 1 ? '\n' : `%${'x'.repeat(rest - 2)}\n`;
  return line.repeat(Math.floor(bytes / line.length)) + last;
}

function buildPdf(padding: string): Buffer {
  const content = '0.2 0.4 0.6 rg 20 20 160 160 re f\n';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
  ];
  // latin1 throughout, so string offsets are byte offsets; the binary comment marks the file binary.
  let text = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n' + padding;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(text.length);
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) {
    text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  }
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

// ------------------------------------------------------------------------------------------ zips

export type ZipEntries = Record<string, string | Buffer>;

/** A zip of the given entries (deflated unless `compress: false`), built with yazl. */
export async function zipOf(entries: ZipEntries, options: { compress?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    zip.addBuffer(bytes, name, { mtime: ZIP_MTIME, compress: options.compress ?? true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A plain zip holding one text file (or the given entries). */
export function zip(entries: ZipEntries = { 'hello.txt': 'Hello, world.\n' }): Promise<Buffer> {
  return zipOf(entries);
}

export interface OoxmlOptions {
  /** Replaces the main part's content type, e.g. a macro-enabled one. */
  mainContentType?: string;
  /** More entries (e.g. `word/vbaProject.bin`), added after the package's own. */
  extraEntries?: ZipEntries;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const NS_CONTENT_TYPES = 'http://schemas.openxmlformats.org/package/2006/content-types';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';

export const OOXML_MAIN_CONTENT_TYPES = {
  docx: `${CT}.wordprocessingml.document.main+xml`,
  xlsx: `${CT}.spreadsheetml.sheet.main+xml`,
  pptx: `${CT}.presentationml.presentation.main+xml`,
  docm: 'application/vnd.ms-word.document.macroEnabled.main+xml',
  xlsm: 'application/vnd.ms-excel.sheet.macroEnabled.main+xml',
  pptm: 'application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml',
} as const;

function contentTypes(overrides: Record<string, string>): string {
  const parts = Object.entries(overrides)
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join('');
  return (
    `${XML_DECLARATION}<Types xmlns="${NS_CONTENT_TYPES}">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    `<Default Extension="xml" ContentType="application/xml"/>${parts}</Types>`
  );
}

function relationships(targets: Array<[type: string, target: string]>): string {
  const items = targets
    .map(([type, target], index) => `<Relationship Id="rId${index + 1}" Type="${REL}/${type}" Target="${target}"/>`)
    .join('');
  return `${XML_DECLARATION}<Relationships xmlns="${NS_RELATIONSHIPS}">${items}</Relationships>`;
}

/** A one-paragraph Word document. */
export function docx(options: OoxmlOptions = {}): Promise<Buffer> {
  return zipOf({
    '[Content_Types].xml': contentTypes({
      '/word/document.xml': options.mainContentType ?? OOXML_MAIN_CONTENT_TYPES.docx,
    }),
    '_rels/.rels': relationships([['officeDocument', 'word/document.xml']]),
    'word/document.xml':
      `${XML_DECLARATION}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
      '<w:body><w:p><w:r><w:t>Hello, world.</w:t></w:r></w:p></w:body></w:document>',
    ...options.extraEntries,
  });
}

/** A workbook of one sheet with `Hello` in A1. */
export function xlsx(options: OoxmlOptions = {}): Promise<Buffer> {
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  return zipOf({
    '[Content_Types].xml': contentTypes({
      '/xl/workbook.xml': options.mainContentType ?? OOXML_MAIN_CONTENT_TYPES.xlsx,
      '/xl/worksheets/sheet1.xml': `${CT}.spreadsheetml.worksheet+xml`,
    }),
    '_rels/.rels': relationships([['officeDocument', 'xl/workbook.xml']]),
    'xl/workbook.xml':
      `${XML_DECLARATION}<workbook xmlns="${ns}" xmlns:r="${NS_R}">` +
      '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels': relationships([['worksheet', 'worksheets/sheet1.xml']]),
    'xl/worksheets/sheet1.xml':
      `${XML_DECLARATION}<worksheet xmlns="${ns}"><sheetData>` +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Hello</t></is></c></row></sheetData></worksheet>',
    ...options.extraEntries,
  });
}

/** A one-slide presentation with its slide master, layout and theme. */
export function pptx(options: OoxmlOptions = {}): Promise<Buffer> {
  const root = `xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"`;
  const emptyTree =
    '<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
    '<p:grpSpPr/></p:spTree></p:cSld>';
  return zipOf({
    '[Content_Types].xml': contentTypes({
      '/ppt/presentation.xml': options.mainContentType ?? OOXML_MAIN_CONTENT_TYPES.pptx,
      '/ppt/slideMasters/slideMaster1.xml': `${CT}.presentationml.slideMaster+xml`,
      '/ppt/slideLayouts/slideLayout1.xml': `${CT}.presentationml.slideLayout+xml`,
      '/ppt/slides/slide1.xml': `${CT}.presentationml.slide+xml`,
      '/ppt/theme/theme1.xml': `${CT}.theme+xml`,
    }),
    '_rels/.rels': relationships([['officeDocument', 'ppt/presentation.xml']]),
    'ppt/presentation.xml':
      `${XML_DECLARATION}<p:presentation ${root}>` +
      '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>' +
      '<p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst>' +
      '<p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>',
    'ppt/_rels/presentation.xml.rels': relationships([
      ['slideMaster', 'slideMasters/slideMaster1.xml'],
      ['slide', 'slides/slide1.xml'],
      ['theme', 'theme/theme1.xml'],
    ]),
    'ppt/slideMasters/slideMaster1.xml':
      `${XML_DECLARATION}<p:sldMaster ${root}>${emptyTree}` +
      '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" ' +
      'accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
      '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>',
    'ppt/slideMasters/_rels/slideMaster1.xml.rels': relationships([
      ['slideLayout', '../slideLayouts/slideLayout1.xml'],
      ['theme', '../theme/theme1.xml'],
    ]),
    'ppt/slideLayouts/slideLayout1.xml':
      `${XML_DECLARATION}<p:sldLayout ${root}>${emptyTree}` +
      '<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>',
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels': relationships([
      ['slideMaster', '../slideMasters/slideMaster1.xml'],
    ]),
    'ppt/slides/slide1.xml': `${XML_DECLARATION}<p:sld ${root}>${emptyTree}<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`,
    'ppt/slides/_rels/slide1.xml.rels': relationships([['slideLayout', '../slideLayouts/slideLayout1.xml']]),
    'ppt/theme/theme1.xml': theme(),
    ...options.extraEntries,
  });
}

// The smallest theme PowerPoint accepts: 12 colours, two fonts, three of each style.
function theme(): string {
  const colour = (name: string, rgb: string): string => `<a:${name}><a:srgbClr val="${rgb}"/></a:${name}>`;
  const colours = [
    colour('dk1', '000000'),
    colour('lt1', 'FFFFFF'),
    colour('dk2', '1F497D'),
    colour('lt2', 'EEECE1'),
    ...['4F81BD', 'C0504D', '9BBB59', '8064A2', '4BACC6', 'F79646'].map((rgb, index) =>
      colour(`accent${index + 1}`, rgb),
    ),
    colour('hlink', '0000FF'),
    colour('folHlink', '800080'),
  ].join('');
  const font = (name: string): string =>
    `<a:${name}><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:${name}>`;
  const fill = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>';
  const three = (item: string): string => item.repeat(3);
  return (
    `${XML_DECLARATION}<a:theme xmlns:a="${NS_A}" name="Office Theme"><a:themeElements>` +
    `<a:clrScheme name="Office">${colours}</a:clrScheme>` +
    `<a:fontScheme name="Office">${font('majorFont')}${font('minorFont')}</a:fontScheme>` +
    '<a:fmtScheme name="Office">' +
    `<a:fillStyleLst>${three(fill)}</a:fillStyleLst>` +
    `<a:lnStyleLst>${three(`<a:ln w="9525">${fill}</a:ln>`)}</a:lnStyleLst>` +
    `<a:effectStyleLst>${three('<a:effectStyle><a:effectLst/></a:effectStyle>')}</a:effectStyleLst>` +
    `<a:bgFillStyleLst>${three(fill)}</a:bgFillStyleLst>` +
    '</a:fmtScheme></a:themeElements></a:theme>'
  );
}

// ---------------------------------------------------------------------------------- RAR and 7z

/**
 * An empty RAR 5 archive: signature, main archive header, end of archive header. Enough for
 * magic-byte detection; a real RAR with entries comes from a dedicated writer.
 */
export function minimalRarSignatureFile(): Buffer {
  // Header: CRC32 of what follows it, header size (vint), type, flags, type-specific flags.
  const header = (type: number): Buffer => {
    const body = Buffer.from([3, type, 0x00, 0x00]); // size 3 (single-byte vints)
    const crc = Buffer.alloc(4);
    crc.writeUInt32LE(crc32(body));
    return Buffer.concat([crc, body]);
  };
  return Buffer.concat([
    Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00]), // `Rar!\x1A\x07\x01\x00`
    header(1), // main archive header, no archive flags
    header(5), // end of archive
  ]);
}

/**
 * An empty 7z archive: the 32-byte signature header (version 0.4) pointing at no next header, with
 * the start-header CRC. Fully valid: `7z t` reports no files.
 */
export function sevenZip(): Buffer {
  const startHeader = Buffer.alloc(20); // next header offset (8), size (8), CRC (4): all zero
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(startHeader));
  return Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04]), crc, startHeader]);
}

// ------------------------------------------------------------------------------------------ text

/** UTF-8 text. */
export function text(content = 'Hello, world.\nBonjour, ça va ? 👋\n'): Buffer {
  return Buffer.from(content, 'utf8');
}

// ------------------------------------------------------------------------------------ all twelve

export interface SampleType {
  mimeType: KnownMimeType;
  extension: string;
  build: () => Buffer | Promise<Buffer>;
}

/** One sample of each of the 12 default types, with its usual extension. */
export const SAMPLE_TYPES: readonly SampleType[] = [
  { mimeType: MIME_JPEG, extension: 'jpg', build: jpeg },
  { mimeType: MIME_PNG, extension: 'png', build: png },
  { mimeType: MIME_GIF, extension: 'gif', build: gif },
  { mimeType: MIME_WEBP, extension: 'webp', build: webp },
  { mimeType: MIME_PDF, extension: 'pdf', build: () => pdf() },
  { mimeType: MIME_DOCX, extension: 'docx', build: () => docx() },
  { mimeType: MIME_XLSX, extension: 'xlsx', build: () => xlsx() },
  { mimeType: MIME_PPTX, extension: 'pptx', build: () => pptx() },
  { mimeType: MIME_ZIP, extension: 'zip', build: () => zip() },
  { mimeType: MIME_RAR, extension: 'rar', build: minimalRarSignatureFile },
  { mimeType: MIME_7Z, extension: '7z', build: sevenZip },
  { mimeType: MIME_TEXT, extension: 'txt', build: () => text() },
];

// ---------------------------------------------------------------------------------------- on disk

/** A new temporary directory for a test's files; remove it with `removeSampleDir`. */
export function makeSampleDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'intake-samples-'));
}

export function removeSampleDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** Writes bytes as `dir/name` and returns the path. `name` must be a plain file name. */
export async function writeSample(dir: string, name: string, bytes: Buffer): Promise<string> {
  if (/[/\\]/u.test(name) || name === '' || name === '.' || name === '..') {
    throw new Error('writeSample takes a plain file name');
  }
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

/** The gateway's `ReceivedFile` (gateway/src/files/types.ts), repeated so this package needs no gateway. */
export interface ReceivedFile {
  field: string;
  originalName: string;
  path: string;
  size: number;
  sha256: string;
}

/**
 * A file as the multipart stage hands it over: bytes in a temporary file under a random name,
 * `originalName` as sent (it may hold anything), size and sha256.
 */
export async function receivedFile(
  dir: string,
  originalName: string,
  bytes: Buffer,
  overrides: Partial<ReceivedFile> = {},
): Promise<ReceivedFile> {
  const path = await writeSample(dir, `upload-${randomUUID()}`, bytes);
  return {
    field: 'file',
    originalName,
    path,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...overrides,
  };
}
