import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '@intake/shared/errors';
import { DEFAULT_ALLOWED_MIME_TYPES, MIME_DOCX } from '@intake/shared/mime-types';
import {
  EXECUTABLE_HEADS,
  docx,
  makeSampleDir,
  OOXML_MAIN_CONTENT_TYPES,
  receivedFile,
  removeSampleDir,
  writeSample,
  zipOf,
} from '@intake/test-files';
import { inspectOoxml } from '../ooxml.js';
import { detectType } from '../type-stage.js';
import { DEFAULT_ARCHIVE_LIMITS } from './budget.js';
import { inspectArchive } from './index.js';
import { SharedZip } from './opened-zip.js';

const OFFICE_DOCUMENT = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';

let dir: string;

beforeAll(async () => {
  dir = await makeSampleDir();
});

afterAll(async () => {
  await removeSampleDir(dir);
});

describe('one opening of an OOXML package for the type and archive stages', () => {
  it('types the package, then inspects it on the same opening and listing', async () => {
    const bytes = await docx({
      extraEntries: { 'word/notes.txt': Buffer.concat([EXECUTABLE_HEADS.pe, Buffer.alloc(64)]) },
    });
    const file = await receivedFile(dir, 'letter.docx', bytes);
    const zip = new SharedZip(file.path);
    try {
      const typed = await detectType(file, DEFAULT_ALLOWED_MIME_TYPES, { zip });
      expect(typed.mimeType).toBe(MIME_DOCX);
      const opened = await zip.open();
      // The type stage read the whole central directory; the archive stage must not need it again.
      expect(opened.zipfile.entriesRead).toBe(opened.entryCount);
      const listing = await opened.entries();
      const error: unknown = await inspectArchive(typed, DEFAULT_ARCHIVE_LIMITS, zip).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'archive_executable' });
      expect(await zip.open()).toBe(opened);
      expect(await opened.entries()).toBe(listing);
    } finally {
      zip.close();
    }
  });

  it('opens nothing for a file no stage reads as a ZIP, and closes after a failed opening', async () => {
    const zip = new SharedZip(`${dir}/missing.docx`);
    zip.close();
    await expect(zip.open()).rejects.toMatchObject({ code: 'ENOENT' });
    zip.close();
  });
});

describe('the type stage checks the sizes the shared opening leaves to its readers', () => {
  it('calls a stored part whose declared sizes disagree unreadable', async () => {
    const rebuilt = await zipOf(
      {
        '[Content_Types].xml': `<Types><Override PartName="/word/document.xml" ContentType="${OOXML_MAIN_CONTENT_TYPES.docx}"/></Types>`,
        '_rels/.rels': `<Relationships><Relationship Id="rId1" Type="${OFFICE_DOCUMENT}" Target="word/document.xml"/></Relationships>`,
        'word/document.xml': '<w:document/>',
      },
      { compress: false },
    );
    await expect(inspectOoxml(await writeSample(dir, 'stored.docx', rebuilt))).resolves.toMatchObject({
      kind: 'document',
    });
    const lying = Buffer.from(rebuilt);
    const central = centralHeaderOf(lying, '[Content_Types].xml');
    // Uncompressed size one byte short of the compressed (stored) size.
    lying.writeUInt32LE(lying.readUInt32LE(central + 20) - 1, central + 24);
    await expect(inspectOoxml(await writeSample(dir, 'lying.docx', lying))).resolves.toMatchObject({
      kind: 'unreadable',
    });
  });
});

/** Where the central directory header of `name` starts. */
function centralHeaderOf(bytes: Buffer, name: string): number {
  let at = bytes.indexOf(Buffer.from('PK\x01\x02', 'latin1'));
  while (at >= 0) {
    const nameLength = bytes.readUInt16LE(at + 28);
    if (bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8') === name) {
      return at;
    }
    at = bytes.indexOf(Buffer.from('PK\x01\x02', 'latin1'), at + 4);
  }
  throw new Error(`no central header for ${name}`);
}
