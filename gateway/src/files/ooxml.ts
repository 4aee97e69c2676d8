// Tells DOCX, XLSX and PPTX apart from any other zip the way Office does: `_rels/.rels` names the
// package's main part (the `officeDocument` relationship) and `[Content_Types].xml` gives that
// part's content type. Read through yauzl's central directory without extracting anything but these
// two small parts, on the opening the archive stage then uses (archive/opened-zip.ts).
import type { Entry, ZipFile } from 'yauzl';
import { MIME_DOCX, MIME_PPTX, MIME_XLSX } from '@intake/shared/mime-types';
import type { OpenedZip, SharedZip } from './archive/opened-zip.js';
import { withZip } from './archive/opened-zip.js';

export type OoxmlFormat = 'docx' | 'xlsx' | 'pptx';

export type OoxmlInspection =
  /** A document of one of the three allowed formats. */
  | { kind: 'document'; format: OoxmlFormat; mimeType: string; mainContentType: string }
  /** A macro-enabled package (docm, xlsm, pptm, templates, xlsb…): `archive_macro`. */
  | { kind: 'macro'; mainContentType: string }
  /** An OOXML package of another kind (template, slide show, Visio…). */
  | { kind: 'other'; mainContentType: string }
  /** A readable zip that is not an OOXML package (no content types, no main part…). */
  | { kind: 'not_ooxml'; reason: string }
  /** A zip that cannot be read: corrupt, encrypted or unsupported compression. */
  | { kind: 'unreadable'; reason: string }
  /** Too many entries, or a part too large, to inspect safely. */
  | { kind: 'over_limits'; reason: string };

export interface OoxmlLimits {
  /** Most entries read from the central directory. */
  maxEntries: number;
  /** Largest `[Content_Types].xml` or `_rels/.rels`, uncompressed. */
  maxPartBytes: number;
}

// Same entry budget as the archive stage (archive/budget.ts), which would refuse more anyway; the
// count comes from the end of central directory, so an oversized package costs no scan. The parts
// read are a few kilobytes in a real document.
export const DEFAULT_OOXML_LIMITS: OoxmlLimits = { maxEntries: 10_000, maxPartBytes: 1024 * 1024 };

const MAIN_CONTENT_TYPES: ReadonlyMap<string, { format: OoxmlFormat; mimeType: string }> = new Map([
  [
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
    { format: 'docx', mimeType: MIME_DOCX },
  ],
  [
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
    { format: 'xlsx', mimeType: MIME_XLSX },
  ],
  [
    'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml',
    { format: 'pptx', mimeType: MIME_PPTX },
  ],
] as const);

// Transitional and Strict (ISO/IEC 29500) relationship types of the main part.
const OFFICE_DOCUMENT_RELATIONSHIPS = new Set([
  'http://schemas.openxmlformats.org/officedocument/2006/relationships/officedocument',
  'http://purl.oclc.org/ooxml/officedocument/relationships/officedocument',
]);

const CONTENT_TYPES_PART = '/[content_types].xml';
const PACKAGE_RELATIONSHIPS_PART = '/_rels/.rels';
const PACKAGE_ROOT = 'http://package.invalid/';

// Control flow, not an error a client sees: it carries a verdict out of the part walk to
// inspectOoxml, which returns it.
class InspectionStop extends Error {
  constructor(readonly result: OoxmlInspection) {
    super(result.kind);
  }
}

/**
 * Inspects a zip file as an OOXML package, through `shared` when given (left open for the archive
 * stage). Never throws for bad content: the result says why.
 */
export async function inspectOoxml(
  path: string,
  limits: OoxmlLimits = DEFAULT_OOXML_LIMITS,
  shared?: SharedZip,
): Promise<OoxmlInspection> {
  try {
    return await withZip(path, shared, (zip) => inspectPackage(zip, limits));
  } catch {
    // The opening failed (a few stray bytes after the end record are tolerated, as Office does).
    return { kind: 'unreadable', reason: 'not a readable zip' };
  }
}

async function inspectPackage(zip: OpenedZip, limits: OoxmlLimits): Promise<OoxmlInspection> {
  if (zip.entryCount > limits.maxEntries) {
    return { kind: 'over_limits', reason: 'too many entries' };
  }
  let entries: readonly Entry[];
  try {
    entries = await zip.entries();
  } catch {
    return { kind: 'unreadable', reason: 'zip cannot be read' };
  }
  try {
    const names = new Set<string>();
    let contentTypes: string | undefined;
    let relationships: string | undefined;
    for (const entry of entries) {
      assertStoredSizesAgree(entry);
      const name = partName(entry);
      if (names.has(name)) {
        // Part names are unique in a package; two readers could pick different copies.
        return { kind: 'not_ooxml', reason: 'duplicate part name' };
      }
      names.add(name);
      if (name === CONTENT_TYPES_PART) {
        contentTypes = await readPart(zip.zipfile, entry, limits.maxPartBytes);
      } else if (name === PACKAGE_RELATIONSHIPS_PART) {
        relationships = await readPart(zip.zipfile, entry, limits.maxPartBytes);
      }
    }
    if (contentTypes === undefined || relationships === undefined) {
      return { kind: 'not_ooxml', reason: 'no [Content_Types].xml or _rels/.rels' };
    }
    const main = mainPartName(relationships);
    if (main === undefined || !names.has(main)) {
      return { kind: 'not_ooxml', reason: 'no main part' };
    }
    const mainContentType = contentTypeOf(contentTypes, main);
    if (mainContentType === undefined) {
      return { kind: 'not_ooxml', reason: 'main part has no content type' };
    }
    return classify(mainContentType);
  } catch (error) {
    if (error instanceof InspectionStop) {
      return error.result;
    }
    return { kind: 'unreadable', reason: 'zip cannot be read' };
  }
}

// The shared opening leaves sizes to its readers (opened-zip.ts); these are the checks yauzl's
// validateEntrySizes made here: a stored entry's two sizes agree (12 more bytes when encrypted) …
function assertStoredSizesAgree(entry: Entry): void {
  const expected = entry.uncompressedSize + (entry.isEncrypted() ? 12 : 0);
  if (entry.compressionMethod === 0 && entry.compressedSize !== expected) {
    throw new InspectionStop({ kind: 'unreadable', reason: 'stored entry sizes disagree' });
  }
}

/** What a main part's content type (lower case) says about the package. */
export function classify(mainContentType: string): OoxmlInspection {
  const known = MAIN_CONTENT_TYPES.get(mainContentType);
  if (known !== undefined) {
    return { kind: 'document', ...known, mainContentType };
  }
  // docm, xlsm, pptm, dotm, xltm, potm, ppsm, ppam, xlam and xlsb all say `macroEnabled`.
  if (mainContentType.includes('macroenabled')) {
    return { kind: 'macro', mainContentType };
  }
  return { kind: 'other', mainContentType };
}

/** The main part's name (`/word/document.xml`, lower case) from the package relationships. */
export function mainPartName(relationshipsXml: string): string | undefined {
  for (const attributes of elements(relationshipsXml, 'Relationship')) {
    const type = attributes.get('type')?.toLowerCase();
    const target = attributes.get('target');
    const external = attributes.get('targetmode')?.toLowerCase() === 'external';
    if (type !== undefined && OFFICE_DOCUMENT_RELATIONSHIPS.has(type) && target !== undefined && !external) {
      return resolveTarget(target);
    }
  }
  return undefined;
}

/** A part's content type (lower case): its Override, else the Default of its extension. */
export function contentTypeOf(contentTypesXml: string, part: string): string | undefined {
  let byDefault: string | undefined;
  const extension = part.slice(part.lastIndexOf('.') + 1);
  for (const attributes of elements(contentTypesXml, 'Override|Default')) {
    const contentType = attributes.get('contenttype')?.trim().toLowerCase();
    const partName = attributes.get('partname');
    if (contentType === undefined) {
      continue;
    }
    if (partName !== undefined && normalisePartName(partName) === part) {
      return contentType;
    }
    if (attributes.get('extension')?.toLowerCase() === extension && part.includes('.')) {
      byDefault ??= contentType;
    }
  }
  return byDefault;
}

// Part names compare case-insensitively and percent-decoded (ECMA-376 Part 2, §6.2.2).
function normalisePartName(name: string): string | undefined {
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return undefined;
  }
}

function partName(entry: Entry): string {
  const raw = entry.fileNameRaw.toString('utf8');
  return normalisePartName(`/${raw}`) ?? `/${raw.toLowerCase()}`;
}

// A relationship target is a URI relative to the package root; anything outside is no main part.
function resolveTarget(target: string): string | undefined {
  try {
    const url = new URL(target, PACKAGE_ROOT);
    if (url.origin !== new URL(PACKAGE_ROOT).origin || url.search !== '' || url.hash !== '') {
      return undefined;
    }
    return normalisePartName(url.pathname);
  } catch {
    return undefined;
  }
}

// The attributes (names lower case, values entity-decoded) of each element with one of the given
// local names; enough for these two flat files, comments skipped so they cannot hide a fake element.
function elements(xml: string, localNames: string): Map<string, string>[] {
  const withoutComments = xml.replace(/<!--[\s\S]*?-->/gu, '');
  const pattern = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?(?:${localNames})(\\s[^>]*)?>`, 'gu');
  const found: Map<string, string>[] = [];
  for (const match of withoutComments.matchAll(pattern)) {
    const attributes = new Map<string, string>();
    for (const attribute of (match[1] ?? '').matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/gu)) {
      const name = (attribute[1] ?? '').replace(/^.*:/u, '').toLowerCase();
      attributes.set(name, decodeEntities(attribute[2] ?? attribute[3] ?? ''));
    }
    found.push(attributes);
  }
  return found;
}

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/giu, (whole, entity: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (entity.startsWith('#')) {
      const codePoint =
        entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
    }
    return named[entity.toLowerCase()] ?? whole;
  });
}

async function readPart(zip: ZipFile, entry: Entry, maxBytes: number): Promise<string> {
  if (entry.uncompressedSize > maxBytes) {
    throw new InspectionStop({ kind: 'over_limits', reason: 'part too large' });
  }
  if (entry.isEncrypted() || !entry.canDecodeFileData()) {
    throw new InspectionStop({ kind: 'unreadable', reason: 'part encrypted or compressed with an unsupported method' });
  }
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let total = 0;
  // … and a part inflates to exactly its declared size.
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > entry.uncompressedSize) {
      stream.destroy();
      throw new InspectionStop({ kind: 'unreadable', reason: 'part larger than declared' });
    }
    chunks.push(chunk);
  }
  if (total !== entry.uncompressedSize) {
    throw new InspectionStop({ kind: 'unreadable', reason: 'part smaller than declared' });
  }
  return decodeXml(Buffer.concat(chunks));
}

// OPC allows UTF-8 and UTF-16 parts; the BOM tells which.
function decodeXml(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder('utf-16le').decode(bytes);
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return new TextDecoder('utf-16be').decode(bytes);
  }
  return new TextDecoder('utf-8').decode(bytes);
}
