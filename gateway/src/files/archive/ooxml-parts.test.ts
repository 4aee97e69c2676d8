import { describe, expect, it } from '@jest/globals';
import { AppError } from '@intake/shared/errors';
import { OoxmlPartScanner, ooxmlPartKind } from './ooxml-parts.js';
import type { OoxmlPartKind } from './ooxml-parts.js';

function scan(kind: OoxmlPartKind, bytes: Buffer, chunkSize = bytes.length): string | null {
  const scanner = new OoxmlPartScanner(kind);
  try {
    for (let at = 0; at < bytes.length; at += chunkSize) {
      scanner.push(bytes.subarray(at, at + chunkSize));
    }
    scanner.finish();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
}

const CONTENT_TYPES = (type: string): string =>
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  `<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="${type}"/></Types>`;

const RELS = (type: string): string =>
  '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `${'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'.repeat(50)}` +
  `<Relationship Id="rId99" Type="${type}" Target="x.bin"/></Relationships>`;

describe('ooxmlPartKind', () => {
  it('recognises the declaration parts', () => {
    expect(ooxmlPartKind('[Content_Types].xml')).toBe('content-types');
    expect(ooxmlPartKind('[content_types].XML')).toBe('content-types');
    expect(ooxmlPartKind('_rels/.rels')).toBe('relationships');
    expect(ooxmlPartKind('word/_rels/document.xml.rels')).toBe('relationships');
    expect(ooxmlPartKind('word/document.xml')).toBeNull();
  });
});

describe('OoxmlPartScanner', () => {
  const macroType = 'application/vnd.ms-word.document.macroEnabled.main+xml';
  const plainType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
  const vbaRel = 'http://schemas.microsoft.com/office/2006/relationships/vbaProject';

  it('finds macro content types, whatever the chunking', () => {
    for (const size of [1, 3, 7, 64, 4096]) {
      expect(scan('content-types', Buffer.from(CONTENT_TYPES(macroType)), size)).toBe('archive_macro');
    }
    expect(scan('content-types', Buffer.from(CONTENT_TYPES(plainType)), 5)).toBeNull();
  });

  it('finds the VBA project content type and Excel 4 macro sheets', () => {
    expect(scan('content-types', Buffer.from(CONTENT_TYPES('application/vnd.ms-office.vbaProject')))).toBe(
      'archive_macro',
    );
    expect(scan('content-types', Buffer.from(CONTENT_TYPES('application/vnd.ms-excel.macrosheet+xml')))).toBe(
      'archive_macro',
    );
  });

  it('finds vbaProject relationships, whatever the chunking', () => {
    for (const size of [1, 13, 100, 100_000]) {
      expect(scan('relationships', Buffer.from(RELS(vbaRel)), size)).toBe('archive_macro');
    }
    expect(
      scan(
        'relationships',
        Buffer.from(RELS('http://schemas.openxmlformats.org/officeDocument/2006/relationships/image')),
      ),
    ).toBeNull();
  });

  it('decodes character references and UTF-16 parts', () => {
    expect(
      scan(
        'content-types',
        Buffer.from(CONTENT_TYPES('application/vnd.ms-word.document.&#109;acro&#x45;nabled.main+xml')),
      ),
    ).toBe('archive_macro');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(RELS(vbaRel), 'utf16le')]);
    expect(scan('relationships', utf16, 7)).toBe('archive_macro');
  });

  it('does not flag a hyperlink that merely mentions the words', () => {
    const hyperlink = RELS('http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink').replace(
      'x.bin',
      'https://example.com/vbaProject/macroEnabled',
    );
    expect(scan('relationships', Buffer.from(hyperlink))).toBeNull();
  });
});
