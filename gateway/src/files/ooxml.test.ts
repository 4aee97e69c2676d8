import { classify, contentTypeOf, DEFAULT_OOXML_LIMITS, inspectOoxml, mainPartName } from './ooxml.js';
import { MIME_DOCX, MIME_PPTX, MIME_XLSX } from '@intake/shared/mime-types';
import {
  docx,
  makeSampleDir,
  OOXML_MAIN_CONTENT_TYPES,
  pptx,
  removeSampleDir,
  writeSample,
  xlsx,
  zip,
  zipOf,
} from '@intake/test-files';

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await makeSampleDir();
});

afterAll(async () => {
  await removeSampleDir(dir);
});

async function inspect(bytes: Buffer | Promise<Buffer>, limits = DEFAULT_OOXML_LIMITS) {
  counter += 1;
  return inspectOoxml(await writeSample(dir, `package-${counter}.zip`, await bytes), limits);
}

const RELS = (
  target: string,
  type = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument',
) =>
  `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${type}" Target="${target}"/></Relationships>`;
const TYPES = (inner: string) =>
  `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${inner}</Types>`;

describe('inspectOoxml', () => {
  it('recognises the three documents', async () => {
    await expect(inspect(docx())).resolves.toMatchObject({ kind: 'document', format: 'docx', mimeType: MIME_DOCX });
    await expect(inspect(xlsx())).resolves.toMatchObject({ kind: 'document', format: 'xlsx', mimeType: MIME_XLSX });
    await expect(inspect(pptx())).resolves.toMatchObject({ kind: 'document', format: 'pptx', mimeType: MIME_PPTX });
  });

  it('reports a macro-enabled main part with its content type', async () => {
    await expect(inspect(docx({ mainContentType: OOXML_MAIN_CONTENT_TYPES.docm }))).resolves.toEqual({
      kind: 'macro',
      mainContentType: 'application/vnd.ms-word.document.macroenabled.main+xml',
    });
  });

  it('reports another OOXML type as `other`', async () => {
    const template = 'application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml';
    await expect(inspect(pptx({ mainContentType: template }))).resolves.toEqual({
      kind: 'other',
      mainContentType: template,
    });
  });

  it('says a plain zip is not OOXML', async () => {
    await expect(inspect(zip())).resolves.toMatchObject({ kind: 'not_ooxml' });
  });

  it('says a package whose main part is missing is not OOXML', async () => {
    const bytes = zipOf({
      '[Content_Types].xml': TYPES(
        `<Override PartName="/word/document.xml" ContentType="${OOXML_MAIN_CONTENT_TYPES.docx}"/>`,
      ),
      '_rels/.rels': RELS('word/document.xml'),
    });
    await expect(inspect(bytes)).resolves.toEqual({ kind: 'not_ooxml', reason: 'no main part' });
  });

  it('falls back to the Default content type of the main part extension', async () => {
    const bytes = zipOf({
      '[Content_Types].xml': TYPES(`<Default Extension="XML" ContentType="${OOXML_MAIN_CONTENT_TYPES.xlsx}"/>`),
      '_rels/.rels': RELS('/xl/Workbook.xml'),
      'xl/workbook.xml': '<workbook/>',
    });
    await expect(inspect(bytes)).resolves.toMatchObject({ kind: 'document', format: 'xlsx' });
  });

  it('follows a Strict (ISO 29500) officeDocument relationship and a prefixed, single-quoted XML', async () => {
    const bytes = zipOf({
      '[Content_Types].xml': `<ct:Types xmlns:ct="http://schemas.openxmlformats.org/package/2006/content-types"><ct:Override PartName='/word/document.xml' ContentType='${OOXML_MAIN_CONTENT_TYPES.docx}'/></ct:Types>`,
      '_rels/.rels': RELS(
        './word/document.xml',
        'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument',
      ),
      'word/document.xml': '<w:document/>',
    });
    await expect(inspect(bytes)).resolves.toMatchObject({ kind: 'document', format: 'docx' });
  });

  it('reads a UTF-16 [Content_Types].xml', async () => {
    const types = TYPES(`<Override PartName="/word/document.xml" ContentType="${OOXML_MAIN_CONTENT_TYPES.docx}"/>`);
    const bytes = zipOf({
      '[Content_Types].xml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(types, 'utf16le')]),
      '_rels/.rels': RELS('word/document.xml'),
      'word/document.xml': '<w:document/>',
    });
    await expect(inspect(bytes)).resolves.toMatchObject({ kind: 'document', format: 'docx' });
  });

  it('ignores an Override hidden in a comment', async () => {
    const bytes = zipOf({
      '[Content_Types].xml': TYPES(
        `<!-- <Override PartName="/word/document.xml" ContentType="${OOXML_MAIN_CONTENT_TYPES.docx}"/> -->` +
          `<Override PartName="/word/document.xml" ContentType="${OOXML_MAIN_CONTENT_TYPES.docm}"/>`,
      ),
      '_rels/.rels': RELS('word/document.xml'),
      'word/document.xml': '<w:document/>',
    });
    await expect(inspect(bytes)).resolves.toMatchObject({ kind: 'macro' });
  });

  it('does not follow an external or escaping main part target', async () => {
    const external = zipOf({
      '[Content_Types].xml': TYPES(`<Default Extension="xml" ContentType="${OOXML_MAIN_CONTENT_TYPES.docx}"/>`),
      '_rels/.rels': RELS('http://example.com/document.xml'),
      'word/document.xml': '<w:document/>',
    });
    await expect(inspect(external)).resolves.toMatchObject({ kind: 'not_ooxml' });
    expect(mainPartName(RELS('../../word/document.xml'))).toBe('/word/document.xml'); // clamped at the root, like a URL
    expect(mainPartName(RELS('//evil.example/word/document.xml'))).toBeUndefined();
  });

  it('refuses duplicate part names (two readers could pick different copies)', async () => {
    // yazl refuses nothing here, so write a twin under a same-length name and rename it in place.
    const withTwin = await zipOf({
      '[Content_Types].xml': TYPES(
        `<Override PartName="/word/document.xml" ContentType="${OOXML_MAIN_CONTENT_TYPES.docx}"/>`,
      ),
      '[Content_Types].xmX': TYPES(
        `<Override PartName="/word/document.xml" ContentType="${OOXML_MAIN_CONTENT_TYPES.docm}"/>`,
      ),
      '_rels/.rels': RELS('word/document.xml'),
      'word/document.xml': '<w:document/>',
    });
    const twin = Buffer.from(
      withTwin.toString('latin1').replaceAll('[Content_Types].xmX', '[Content_Types].xml'),
      'latin1',
    );
    await expect(inspect(twin)).resolves.toEqual({ kind: 'not_ooxml', reason: 'duplicate part name' });
  });

  it('leaves unsafe entry names to the archive stage instead of failing', async () => {
    const withEntry = await docx({ extraEntries: { 'xx/evil.txt': 'boo' } });
    const traversal = Buffer.from(withEntry.toString('latin1').replaceAll('xx/evil.txt', '../evil.txt'), 'latin1');
    await expect(inspect(traversal)).resolves.toMatchObject({ kind: 'document', format: 'docx' });
  });

  it('reports a file that is not a readable zip', async () => {
    await expect(inspect(Buffer.from('PK\u0003\u0004 and then nothing', 'latin1'))).resolves.toMatchObject({
      kind: 'unreadable',
    });
    const whole = await docx();
    await expect(inspect(whole.subarray(0, 100))).resolves.toMatchObject({ kind: 'unreadable' });
  });

  it('stops at its limits', async () => {
    await expect(inspect(docx(), { maxEntries: 2, maxPartBytes: 1024 * 1024 })).resolves.toEqual({
      kind: 'over_limits',
      reason: 'too many entries',
    });
    await expect(inspect(docx(), { maxEntries: 100, maxPartBytes: 64 })).resolves.toEqual({
      kind: 'over_limits',
      reason: 'part too large',
    });
  });
});

describe('OOXML helpers', () => {
  it('classifies main content types', () => {
    expect(classify('application/vnd.ms-excel.sheet.binary.macroenabled.main')).toMatchObject({ kind: 'macro' });
    expect(classify('application/vnd.ms-powerpoint.presentation.macroenabled.main+xml')).toMatchObject({
      kind: 'macro',
    });
    expect(classify('application/xml')).toMatchObject({ kind: 'other' });
  });

  it('resolves the main part name', () => {
    expect(mainPartName(RELS('word/document.xml'))).toBe('/word/document.xml');
    expect(mainPartName(RELS('/Word/Document%20One.xml'))).toBe('/word/document one.xml');
    expect(mainPartName(RELS('word/document.xml', 'http://example.com/other'))).toBeUndefined();
  });

  it('prefers an Override to a Default', () => {
    const xml = TYPES(
      '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/A.xml" ContentType="Text/X"/>',
    );
    expect(contentTypeOf(xml, '/a.xml')).toBe('text/x');
    expect(contentTypeOf(xml, '/b.xml')).toBe('application/xml');
    expect(contentTypeOf(xml, '/c')).toBeUndefined();
  });
});
