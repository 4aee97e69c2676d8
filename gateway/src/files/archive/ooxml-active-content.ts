// Active content an OOXML document fetches or runs without a macro: a remote template (template
// injection), a remote or `mhtml:` OLE object (Follina, CVE-2022-30190), remote sub-documents and
// frames, and DDE (Dynamic Data Exchange) field codes and links, which start a program. Each part
// that can declare them is parsed as it inflates by `saxes`, a streaming XML parser, so a field code
// split over runs or a target spelled with character references is read as Office reads it.
import { AppError } from '@intake/shared';
import { SaxesParser } from 'saxes';
import type { SaxesTagPlain } from 'saxes';

/**
 * `relationships`: a `.rels` part. `document`: any other XML part, wherever it sits, since a
 * package may put its main part anywhere its relationships say (Word and Excel markup are told
 * apart by their elements, not by the part's folder). `strict` parts, in the folders Office itself
 * writes (`word/`, `xl/`, `ppt/`, and every `.rels`), must be well-formed XML; elsewhere (any
 * `.xml` file in a plain zip) a parse error only ends the scan of that file.
 */
export interface ActiveContentPart {
  kind: 'relationships' | 'document';
  strict: boolean;
}

/** Which parts are parsed, by name (case-insensitive, as OPC compares part names). */
export function activeContentPart(name: string): ActiveContentPart | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.rels')) {
    return { kind: 'relationships', strict: true };
  }
  if (lower.endsWith('.xml') && lower !== '[content_types].xml') {
    return { kind: 'document', strict: /^(?:word|xl|ppt)\//u.test(lower) };
  }
  return null;
}

/** Relationship types (last URI segment) that Office follows on opening when the target is external. */
const FETCHED_ON_OPEN = new Set(['attachedtemplate', 'oleobject', 'subdocument', 'frame']);

/** URI schemes that hand the target to a protocol handler, whatever the relationship type. */
const HANDLER_SCHEME = /^\s*(?:mhtml|ms-msdt|search-ms|ms-search|ms-officecmd|ms-word|ms-excel|ms-powerpoint)\s*:/iu;

/**
 * True unless the target is a local file: a drive path (`C:\…`, `file:///C:/…`) or a relative
 * path. Real documents made from a local template keep such a link; injection needs a remote one
 * (http, https, ftp, `\\host\share`, `file://host/…`, WebDAV).
 */
export function isRemoteTarget(target: string): boolean {
  const value = target.trim();
  if (/^file:\/\/\/[a-z]:/iu.test(value) || /^[a-z]:[\\/]/iu.test(value)) {
    return false;
  }
  return /^[a-z][a-z0-9+.-]+:/iu.test(value) || /^[\\/]{2}/u.test(value);
}

/** The first word of a Word field instruction names the field; DDE and DDEAUTO run a program. */
function isDdeInstruction(instruction: string): boolean {
  return /^[\s\\]*dde(?:auto)?(?:\s|$)/iu.test(instruction);
}

/** An Excel formula referring to another program through DDE: `cmd|' /c calc'!A0`. */
function isDdeFormula(formula: string): boolean {
  const withoutStrings = formula.replace(/"(?:[^"]|"")*"/gu, '""');
  return /\|[\s\S]*!/u.test(withoutStrings);
}

function activeContent(detail: string): AppError {
  return new AppError('document_active_content', detail);
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function attribute(tag: SaxesTagPlain, name: string): string | undefined {
  for (const [key, value] of Object.entries(tag.attributes)) {
    if (localName(key) === name) {
      return value;
    }
  }
  return undefined;
}

function encodingOf(head: Uint8Array): string {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0x3c && head[1] === 0x00)) {
    return 'utf-16le';
  }
  if ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0x00 && head[1] === 0x3c)) {
    return 'utf-16be';
  }
  return 'utf-8';
}

/** Streams one part and throws `document_active_content` as soon as active content shows. */
export class ActiveContentScanner {
  private readonly parser = new SaxesParser();
  private decoder: TextDecoder | null = null;
  private start: Buffer = Buffer.alloc(0);
  /** Open elements' local names. */
  private readonly open: string[] = [];
  /** Word markup: the instruction of each field being read (nested fields stack up). */
  private readonly fields: { instruction: string; judged: boolean }[] = [];
  /** Spreadsheet markup: the formula being read. */
  private formula: string | null = null;

  /** Set once a lenient part fails to parse: the rest of it is not read. */
  private abandoned = false;

  constructor(private readonly part: ActiveContentPart) {
    this.parser.on('opentag', (tag) => this.openTag(tag));
    this.parser.on('closetag', (tag) => this.closeTag(tag));
    this.parser.on('text', (text) => this.text(text));
    this.parser.on('cdata', (text) => this.text(text));
  }

  push(chunk: Uint8Array): void {
    if (this.decoder === null) {
      this.start = Buffer.concat([this.start, chunk]);
      if (this.start.length < 2) {
        return;
      }
      this.decoder = new TextDecoder(encodingOf(this.start));
      chunk = this.start;
    }
    this.write(this.decoder.decode(chunk, { stream: true }));
  }

  finish(): void {
    if (this.decoder === null) {
      this.decoder = new TextDecoder(encodingOf(this.start));
      this.write(this.decoder.decode(this.start));
    } else {
      this.write(this.decoder.decode());
    }
    this.guard(() => this.parser.close());
  }

  private write(text: string): void {
    // Strip a byte order mark: the parser wants the XML declaration first.
    this.guard(() => this.parser.write(text.replace(/^\uFEFF/u, '')));
  }

  private guard(action: () => unknown): void {
    if (this.abandoned) {
      return;
    }
    try {
      action();
    } catch (error) {
      if (error instanceof AppError) {
        throw error;
      }
      if (!this.part.strict) {
        this.abandoned = true;
        return;
      }
      // A part Office would have to repair could be repaired into anything.
      throw new AppError('archive_unreadable', 'A document part is not well-formed XML.', { cause: error });
    }
  }

  private openTag(tag: SaxesTagPlain): void {
    const name = localName(tag.name);
    this.open.push(name);
    if (this.part.kind === 'relationships') {
      if (name === 'Relationship') {
        this.judgeRelationship(tag);
      }
      return;
    }
    this.openWordTag(name, tag);
    if (name === 'ddeLink') {
      throw activeContent('The workbook links to another program through DDE.');
    }
    if (name === 'f') {
      this.formula = '';
    }
  }

  private closeTag(tag: SaxesTagPlain): void {
    this.open.pop();
    if (localName(tag.name) === 'f' && this.formula !== null) {
      if (isDdeFormula(this.formula)) {
        throw activeContent('A formula calls another program through DDE.');
      }
      this.formula = null;
    }
  }

  private text(text: string): void {
    const current = this.open[this.open.length - 1];
    if (current === 'instrText') {
      const field = this.fields[this.fields.length - 1];
      if (field === undefined) {
        this.judgeInstruction(text);
      } else {
        field.instruction += text;
      }
    } else if (this.formula !== null) {
      this.formula += text;
    }
  }

  private judgeRelationship(tag: SaxesTagPlain): void {
    const target = attribute(tag, 'Target') ?? '';
    if (attribute(tag, 'TargetMode')?.trim().toLowerCase() !== 'external') {
      return;
    }
    if (HANDLER_SCHEME.test(target)) {
      throw activeContent('The document links to a protocol handler that runs code.');
    }
    const type = (attribute(tag, 'Type') ?? '').trim().toLowerCase();
    const typeName = type.slice(type.lastIndexOf('/') + 1);
    if (FETCHED_ON_OPEN.has(typeName) && isRemoteTarget(target)) {
      throw activeContent('The document fetches a remote template, object or frame when opened.');
    }
  }

  private openWordTag(name: string, tag: SaxesTagPlain): void {
    if (name === 'fldSimple') {
      this.judgeInstruction(attribute(tag, 'instr') ?? '');
    } else if (name === 'fldChar') {
      const type = attribute(tag, 'fldCharType');
      if (type === 'begin') {
        this.fields.push({ instruction: '', judged: false });
      } else if (type === 'separate' || type === 'end') {
        const field = this.fields[this.fields.length - 1];
        if (field !== undefined && !field.judged) {
          field.judged = true;
          this.judgeInstruction(field.instruction);
        }
        if (type === 'end') {
          this.fields.pop();
        }
      }
    }
  }

  private judgeInstruction(instruction: string): void {
    if (isDdeInstruction(instruction)) {
      throw activeContent('The document holds a DDE field, which starts a program.');
    }
  }
}
