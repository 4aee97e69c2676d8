import { describe, expect, it } from '@jest/globals';
import { AppError } from '@intake/shared/errors';
import { complexField } from '@intake/test-files';
import type { ActiveContentPartKind } from './ooxml-active-content.js';
import { ActiveContentScanner, activeContentPartKind, isRemoteTarget } from './ooxml-active-content.js';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** The code a part gets when streamed in chunks of `size` bytes, or `ok`. */
function verdict(kind: ActiveContentPartKind, xml: string | Buffer, size: number): string {
  const bytes = Buffer.isBuffer(xml) ? xml : Buffer.from(xml);
  const scanner = new ActiveContentScanner(kind);
  try {
    for (let offset = 0; offset < bytes.length; offset += size) {
      scanner.push(bytes.subarray(offset, offset + size));
    }
    scanner.finish();
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
}

/** The same verdict whatever the chunk boundaries: one byte, seven bytes, whole. */
function everyChunking(kind: ActiveContentPartKind, xml: string | Buffer): string {
  const verdicts = new Set([1, 7, 4096].map((size) => verdict(kind, xml, size)));
  expect(verdicts.size).toBe(1);
  return [...verdicts][0] ?? '';
}

const body = (paragraph: string): string => `<w:document ${W}><w:body><w:p>${paragraph}</w:p></w:body></w:document>`;

describe('ActiveContentScanner', () => {
  it('reads parts by name: .rels as relationships, any other XML as a document', () => {
    expect(activeContentPartKind('word/_rels/settings.xml.rels')).toBe('relationships');
    expect(activeContentPartKind('content/main.xml')).toBe('document');
    expect(activeContentPartKind('[Content_Types].xml')).toBeNull();
    expect(activeContentPartKind('word/media/image1.png')).toBeNull();
  });

  it('finds a DDE field however the chunks cut it', () => {
    expect(everyChunking('document', body(complexField([' DD', 'EAU', 'TO cmd'])))).toBe('document_active_content');
    expect(everyChunking('document', body('<w:fldSimple w:instr=" &#x44;&#68;E cmd"/>'))).toBe(
      'document_active_content',
    );
    const cdata = complexField(['<![CDATA[DDEAUTO]]> cmd']).replace('&lt;', '<');
    expect(everyChunking('document', body(cdata))).toBe('document_active_content');
    const commented = complexField(['DD<!-- why not -->EAUTO cmd']);
    expect(everyChunking('document', body(commented))).toBe('document_active_content');
  });

  it.each([
    [
      'a simple INCLUDEPICTURE',
      '<w:fldSimple w:instr=" INCLUDEPICTURE  &quot;http://x.invalid/p.png&quot; \\* MERGEFORMATINET \\d "/>',
    ],
    ['an INCLUDEPICTURE split over runs', complexField([' INCLUDE', 'PICTURE "ht', 'tps://x.invalid/p.png" \\d'])],
    ['a bare IMPORT', complexField([' import http://x.invalid/p.png '])],
    ['an INCLUDETEXT from a share', complexField([' INCLUDETEXT "\\\\\\\\host\\\\share\\\\a.docx" '])],
    ['an INCLUDE in curly quotes', complexField([' INCLUDE \u201chttps://x.invalid/a.docx\u201d '])],
    [
      'a LINK to a remote workbook',
      complexField([' LINK Excel.Sheet.12 "https://x.invalid/b.xlsx" "Sheet1!R1C1" \\a \\f 4 ']),
    ],
    ['an RD to a remote document', '<w:fldSimple w:instr="RD &quot;file://host/share/c.docx&quot;"/>'],
    ['a DATABASE query', complexField([' DATABASE \\d "C:\\\\data\\\\q.mdb" \\s "select * from t" '])],
  ])('refuses a field that fetches on open: %s', (_label, paragraph) => {
    expect(everyChunking('document', body(paragraph))).toBe('document_active_content');
  });

  it('refuses a fetching field whose file name another field computes', () => {
    const computed = complexField([' INCLUDEPICTURE "', '" \\d ']).replace(
      '<w:r><w:fldChar w:fldCharType="separate"/></w:r>',
      `${complexField([' MERGEFIELD PhotoUrl '])}<w:r><w:fldChar w:fldCharType="separate"/></w:r>`,
    );
    expect(everyChunking('document', body(computed))).toBe('document_active_content');
  });

  it('passes fields that read local files, hyperlinks and ordinary fields', () => {
    for (const paragraph of [
      complexField([' INCLUDEPICTURE "C:\\\\Pictures\\\\logo.png" \\* MERGEFORMAT ']),
      complexField([' INCLUDETEXT "chapter2.docx" ']),
      complexField([' LINK Excel.Sheet.12 "C:\\\\Data\\\\figures.xlsx" "Sheet1!R1C1:R4C3" \\a \\f 4 \\h ']),
      complexField([' LINK Excel.Sheet.12 "figures.xlsx" "R1C1:R4C3" \\a ']),
      '<w:fldSimple w:instr=" HYPERLINK &quot;https://example.org/&quot; "/>',
      complexField([' MERGEFIELD Name \\* MERGEFORMAT ']),
    ]) {
      expect(everyChunking('document', body(paragraph))).toBe('ok');
    }
  });

  it('ignores fields written inside comments, CDATA text and processing instructions', () => {
    const fake = '<w:fldSimple w:instr="DDEAUTO cmd"/>';
    expect(everyChunking('document', body(`<!-- ${fake} -->`))).toBe('ok');
    expect(everyChunking('document', body(`<w:r><w:t><![CDATA[${fake}]]></w:t></w:r>`))).toBe('ok');
    expect(everyChunking('document', body(`<?note ${fake} ?>`))).toBe('ok');
    expect(everyChunking('document', body(`<w:r><w:t>&lt;w:fldSimple w:instr="DDE x"/&gt;</w:t></w:r>`))).toBe('ok');
  });

  it('judges each field of a nested field by its own instruction', () => {
    const nested = complexField([' IF 1 = 1 "', '" "no" ']).replace(
      '<w:r><w:fldChar w:fldCharType="separate"/></w:r>',
      `${complexField([' PAGE '])}<w:r><w:fldChar w:fldCharType="separate"/></w:r>`,
    );
    expect(everyChunking('document', body(nested))).toBe('ok');
  });

  it('reads UTF-16 parts, as OPC allows', () => {
    const xml = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body(complexField(['DDE cmd'])), 'utf16le')]);
    expect(everyChunking('document', xml)).toBe('document_active_content');
  });

  it('refuses a DDE formula and a ddeLink, and passes pipes inside strings', () => {
    const sheet = (formula: string) =>
      `<worksheet><sheetData><row><c><f>${formula}</f></c></row></sheetData></worksheet>`;
    expect(everyChunking('document', sheet("cmd|' /c calc'!A0"))).toBe('document_active_content');
    expect(everyChunking('document', sheet('MSEXCEL|&apos;\\..\\..\\calc&apos;!A1'))).toBe('document_active_content');
    expect(everyChunking('document', sheet('CONCAT("a|b", "!")'))).toBe('ok');
    expect(everyChunking('document', sheet('&apos;Q1|Q2&apos;!A1+SUM(Sales[a|b])+Sheet2!B2'))).toBe('ok');
    expect(everyChunking('document', '<externalLink><ddeLink ddeService="cmd"/></externalLink>')).toBe(
      'document_active_content',
    );
  });

  it('judges external relationships, attribute order and quotes as written', () => {
    const rels = (attributes: string) =>
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship ${attributes}/></Relationships>`;
    const type = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate';
    expect(
      everyChunking('relationships', rels(`TargetMode='External' Target='https://x.invalid/t' Type='${type}' Id='r'`)),
    ).toBe('document_active_content');
    expect(everyChunking('relationships', rels(`Id="r" Type="${type}" Target="https://x.invalid/t"`))).toBe('ok');
    const image = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
    expect(
      everyChunking(
        'relationships',
        rels(`Id="r" Type="${image}" Target="https://x.invalid/p.png" TargetMode="External"`),
      ),
    ).toBe('document_active_content');
    expect(everyChunking('relationships', rels(`Id="r" Type="${image}" Target="media/image1.png"`))).toBe('ok');
    const dataSource = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/mailMergeSource';
    const mailMerge = (target: string) => rels(`Id="r" Type="${dataSource}" Target="${target}" TargetMode="External"`);
    expect(everyChunking('relationships', mailMerge('\\\\host\\share\\list.xlsx'))).toBe('document_active_content');
    expect(everyChunking('relationships', mailMerge('file:///C:\\Users\\me\\list.xlsx'))).toBe('ok');
    expect(
      everyChunking(
        'relationships',
        rels(`Id="r" Type="x/hyperlink" Target="&#x6D;html:http://x" TargetMode="External"`),
      ),
    ).toBe('document_active_content');
  });

  it('tells remote targets from local ones', () => {
    for (const remote of [
      'http://x/t.dotm',
      'HTTPS://x/t',
      '\\\\host\\share\\t.dotm',
      '//host/t',
      'file://host/t',
      'ftp://x/t',
    ]) {
      expect(isRemoteTarget(remote)).toBe(true);
    }
    for (const local of ['file:///C:/Users/me/t.dotx', 'C:\\Templates\\t.dotx', 't.dotx', '../t.dotx']) {
      expect(isRemoteTarget(local)).toBe(false);
    }
  });

  it('refuses a construct that never ends rather than holding it', () => {
    const endless = `<w:document ${W}><!-- ${'x'.repeat(2 * 1024 * 1024)}`;
    expect(verdict('document', endless, 64 * 1024)).toBe('archive_unreadable');
  });

  // A bound against a scan that turns quadratic (minutes), not a speed target: a linear read of 16 MB
  // takes well under a second on a quiet machine, a few on a loaded CI one; speed lives in the bench.
  it('reads a 16 MB sheet dense with formulas in linear time', () => {
    const row = '<row><c s="1" t="n"><v>0</v></c><c><f>SUM(A1:A9)</f><v>0</v></c></row>';
    const sheet = Buffer.from(
      `<worksheet><sheetData>${row.repeat((16 * 1024 * 1024) / row.length)}</sheetData></worksheet>`,
    );
    const started = performance.now();
    expect(verdict('document', sheet, 64 * 1024)).toBe('ok');
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
