// Active content an OOXML document fetches or runs without a macro: a remote template (template
// injection), a remote or `mhtml:` OLE object (Follina, CVE-2022-30190), remote sub-documents and
// frames, and DDE (Dynamic Data Exchange) field codes and links, which start a program. Each XML
// part is scanned as it inflates for the few elements that matter, reading text and attributes as
// an XML parser does, so a field code split over runs or spelled `&#x44;DE` is read as Office reads
// it. Written here rather than with a streaming XML parser, which reads 12 to 20 MB/s where an
// upload may expand to 1 GiB of XML (docs/decisions/ooxml-active-content.md); what is refused:
// docs/security.md ("The file pipeline").
import { AppError } from '@intake/shared/errors';
import { XmlPartDecoder } from './xml-encoding.js';

export type ActiveContentPartKind = 'relationships' | 'document';

/**
 * `relationships` for a `.rels` part; `document` for any other XML part, wherever it sits: a
 * package may put its main part anywhere its relationships say, so Word and Excel markup are told
 * apart by their elements, not by the part's folder.
 */
export function activeContentPartKind(name: string): ActiveContentPartKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.rels')) {
    return 'relationships';
  }
  if (lower.endsWith('.xml') && lower !== '[content_types].xml') {
    return 'document';
  }
  return null;
}

/**
 * Relationship types (last URI segment) that Office follows on opening when the target is external:
 * templates, linked objects, subdocuments and frames, a picture linked rather than embedded
 * (`<a:blip r:link>`, which Word and PowerPoint fetch to draw it), a workbook's link to another
 * workbook (`externalLinkPath`, which Excel reads to update the cached values), and a mail-merge
 * main document's data source (Word runs its query on opening).
 */
const FETCHED_ON_OPEN = new Set([
  'attachedtemplate',
  'oleobject',
  'subdocument',
  'frame',
  'image',
  'externallinkpath',
  'mailmergesource',
  'mailmergeheadersource',
]);

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

/** The first word of a Word field instruction names the field (case-insensitive). */
function fieldName(instruction: string): string {
  return /^[\s\\]*([a-z]+)/iu.exec(instruction)?.[1]?.toLowerCase() ?? '';
}

/** Fields that start a program: DDE and DDEAUTO. */
const PROGRAM_FIELDS = new Set(['dde', 'ddeauto']);

/**
 * A field argument naming a remote file: a URL with an authority (`http://`, `ftp://`,
 * `file://host/`), a UNC path or a protocol handler. Narrower than `isRemoteTarget`, since field
 * arguments also hold spreadsheet ranges (`"R1C1:R4C3"`), which look like a scheme.
 */
function isRemoteFieldTarget(argument: string): boolean {
  const value = argument.trim();
  return (
    isRemoteTarget(value) &&
    (/^[a-z][a-z0-9+.-]*:\/\//iu.test(value) || /^[\\/]{2}/u.test(value) || HANDLER_SCHEME.test(value))
  );
}

/** A field that queries a database through ODBC or OLE DB, by a connection string, on every update. */
const DATABASE_FIELD = 'database';

/**
 * Fields that read another file when Word updates them, which it does on opening for pictures and
 * linked content: INCLUDEPICTURE (IMPORT in old documents), INCLUDETEXT (INCLUDE), LINK (an OLE
 * link, with its server program's class first) and RD (a referenced document for indexes and
 * tables of contents). Refused when a file they name is remote.
 */
const FETCHING_FIELDS = new Set(['includepicture', 'import', 'includetext', 'include', 'link', 'rd']);

/**
 * The arguments of a field instruction after its name, switches (`\d`, `\* MERGEFORMATINET`)
 * skipped: quoted text (straight or curly quotes) or a bare word; a bare word starting with two
 * backslashes is a UNC path, not a switch. Each is given as written and with `\\` and `\"`
 * unescaped as Word reads quoted text, so either reading of a path is judged.
 */
function fieldArguments(instruction: string): string[] {
  const rest = instruction.replace(/^[\s\\]*[a-z]+/iu, '');
  const values: string[] = [];
  for (const match of rest.matchAll(/"((?:[^"\\]|\\.)*)"?|\u201c([^\u201d]*)\u201d?|(\S+)/gu)) {
    const value = match[1] ?? match[2] ?? match[3] ?? '';
    if (match[3] !== undefined && value.startsWith('\\') && !value.startsWith('\\\\')) {
      continue;
    }
    values.push(value, value.replace(/\\(.)/gu, '$1'));
  }
  return values;
}

/**
 * An Excel formula referring to another program through DDE: `cmd|' /c calc'!A0`. A `|` is no
 * operator in Excel, so outside strings (`"a|b"`), quoted sheet names (`'a|b'!A1`) and structured
 * references (`Table1[a|b]`) it can only be DDE's `application|topic!item`.
 */
function isDdeFormula(formula: string): boolean {
  const bare = formula
    .replace(/"(?:[^"]|"")*"/gu, '""')
    .replace(/'(?:[^']|'')*'/gu, "''")
    .replace(/\[[^\]]*\]/gu, '[]');
  return /\|[\s\S]*!/u.test(bare);
}

function activeContent(detail: string): AppError {
  return new AppError('document_active_content', detail);
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's five named entities and character references, as a parser resolves them in text and attributes. */
function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/giu, (whole, entity: string) => {
    if (entity.startsWith('#')) {
      const hex = entity[1] === 'x' || entity[1] === 'X';
      const code = Number.parseInt(entity.slice(hex ? 2 : 1), hex ? 16 : 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[entity] ?? whole;
  });
}

/** The value of attribute `name` (any prefix) in a start tag's text, references decoded. */
function attribute(tag: string, name: string): string | undefined {
  const pattern = new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'u');
  const match = pattern.exec(tag);
  return match === null ? undefined : decodeReferences(match[1] ?? match[2] ?? '');
}

/**
 * Where a construct that matters may start: a comment, a CDATA section, a processing instruction
 * (their content is not markup), or a start or end tag of one of the elements we read.
 */
const INTERESTING =
  /<(?:!--|!\[CDATA\[|\?|(\/?)(?:[A-Za-z_][\w.-]*:)?(Relationship|fldChar|instrText|fldSimple|ddeLink|f)(?=[\s/>]))/gu;
/** The rest of a tag: attributes (quoted values may hold `>`) up to its `>`. */
const TAG_REST = /(?:[^>"']|"[^"]*"|'[^']*')*>/uy;
/** A construct is at most this long before its end shows; longer is refused, not buffered. */
const MAX_PENDING_CHARS = 1024 * 1024;
/** Text kept unscanned at the end of a chunk: enough for the start of any construct above. */
const TAIL_CHARS = 128;

/** Streams one part and throws `document_active_content` as soon as active content shows. */
export class ActiveContentScanner {
  private readonly decoder = new XmlPartDecoder();
  /** Decoded text not yet scanned (a construct cut by the end of a chunk). */
  private pending = '';
  /** The text of the `instrText` or `f` element being read, references decoded. */
  private capture: { element: 'instrText' | 'f'; text: string } | null = null;
  /**
   * The instruction of each Word field being read (nested fields stack up); `computed` when a
   * nested field supplies part of it, so its arguments are only known once Word updates it.
   */
  private readonly fields: { instruction: string; judged: boolean; computed: boolean }[] = [];

  constructor(private readonly kind: ActiveContentPartKind) {}

  push(chunk: Uint8Array): void {
    this.scan(this.decoder.push(chunk), false);
  }

  finish(): void {
    this.scan(this.decoder.finish(), true);
  }

  private scan(text: string, final: boolean): void {
    const source = this.pending + text;
    let position = 0;
    for (;;) {
      INTERESTING.lastIndex = position;
      const match = INTERESTING.exec(source);
      if (match === null) {
        // Nothing of interest ahead; keep a short tail, where one may be starting.
        const keepFrom = final ? source.length : this.tailStart(source, position);
        this.captureText(source.slice(position, keepFrom));
        position = keepFrom;
        break;
      }
      this.captureText(source.slice(position, match.index));
      const end = this.construct(source, match, final);
      if (end === null) {
        // Cut by the end of the chunk: scanned again with the next one.
        position = match.index;
        break;
      }
      position = end;
    }
    this.pending = source.slice(position);
    if (this.pending.length > MAX_PENDING_CHARS) {
      throw new AppError('archive_unreadable', 'A document part holds a construct too long to inspect.');
    }
  }

  /** Where the unscanned tail starts: its last `<` (or `&`, a reference cut short) near the end. */
  private tailStart(source: string, position: number): number {
    const floor = Math.max(position, source.length - TAIL_CHARS);
    const lastTag = source.lastIndexOf('<');
    const lastReference = source.lastIndexOf('&');
    const cut = [lastTag, lastReference].filter((index) => index >= floor);
    return cut.length === 0 ? source.length : Math.min(...cut);
  }

  /** Handles the construct `match` starts; returns where it ends, or null when it is not complete yet. */
  private construct(source: string, match: RegExpExecArray, final: boolean): number | null {
    const at = match.index;
    const opening = match[0];
    const terminators: Record<string, string> = { '<!--': '-->', '<![CDATA[': ']]>', '<?': '?>' };
    const terminator = terminators[opening];
    if (terminator !== undefined) {
      const close = source.indexOf(terminator, at + opening.length);
      if (close < 0) {
        return final ? source.length : null;
      }
      if (opening === '<![CDATA[' && this.capture !== null) {
        this.capture.text += source.slice(at + opening.length, close);
      }
      return close + terminator.length;
    }
    TAG_REST.lastIndex = at + opening.length;
    if (TAG_REST.exec(source) === null) {
      return final ? source.length : null;
    }
    const end = TAG_REST.lastIndex;
    // `/>` closes an empty element; XML allows no space between the two.
    const selfClosing = source.charCodeAt(end - 2) === 0x2f;
    this.element(match[2] ?? '', match[1] === '/', selfClosing, source, at, end);
    return end;
  }

  private captureText(raw: string): void {
    if (this.capture === null || raw.length === 0) {
      return;
    }
    // Other markup inside (invalid there) is dropped, as a reader of the element's text would.
    const markupFree = raw.includes('<') ? raw.replace(/<[^>]*>/gu, '') : raw;
    this.capture.text += markupFree.includes('&') ? decodeReferences(markupFree) : markupFree;
  }

  private element(name: string, closing: boolean, selfClosing: boolean, source: string, at: number, end: number): void {
    const tag = (): string => source.slice(at, end);
    if (this.kind === 'relationships') {
      if (name === 'Relationship' && !closing) {
        this.judgeRelationship(tag());
      }
      return;
    }
    switch (name) {
      case 'ddeLink':
        throw activeContent('The workbook links to another program through DDE.');
      case 'fldSimple':
        if (!closing) {
          this.judgeInstruction(attribute(tag(), 'instr') ?? '');
        }
        return;
      case 'fldChar':
        if (!closing) {
          this.fieldCharacter(attribute(tag(), 'fldCharType'));
        }
        return;
      case 'instrText':
      case 'f':
        if (closing) {
          this.endCapture(name);
        } else if (!selfClosing) {
          this.capture = { element: name, text: '' };
        }
        return;
      default:
        return;
    }
  }

  private endCapture(element: 'instrText' | 'f'): void {
    const captured = this.capture;
    this.capture = null;
    if (captured?.element !== element) {
      return;
    }
    if (element === 'f') {
      if (captured.text.includes('|') && isDdeFormula(captured.text)) {
        throw activeContent('A formula calls another program through DDE.');
      }
      return;
    }
    const field = this.fields[this.fields.length - 1];
    if (field === undefined) {
      this.judgeInstruction(captured.text);
    } else {
      field.instruction += captured.text;
    }
  }

  private fieldCharacter(type: string | undefined): void {
    if (type === 'begin') {
      const parent = this.fields[this.fields.length - 1];
      if (parent !== undefined && !parent.judged) {
        parent.computed = true;
      }
      this.fields.push({ instruction: '', judged: false, computed: false });
      return;
    }
    if (type !== 'separate' && type !== 'end') {
      return;
    }
    const field = this.fields[this.fields.length - 1];
    if (field !== undefined && !field.judged) {
      field.judged = true;
      this.judgeInstruction(field.instruction, field.computed);
    }
    if (type === 'end') {
      this.fields.pop();
    }
  }

  private judgeRelationship(tag: string): void {
    if (attribute(tag, 'TargetMode')?.trim().toLowerCase() !== 'external') {
      return;
    }
    const target = attribute(tag, 'Target') ?? '';
    if (HANDLER_SCHEME.test(target)) {
      throw activeContent('The document links to a protocol handler that runs code.');
    }
    const type = (attribute(tag, 'Type') ?? '').trim().toLowerCase();
    const typeName = type.slice(type.lastIndexOf('/') + 1);
    if (FETCHED_ON_OPEN.has(typeName) && isRemoteTarget(target)) {
      throw activeContent('The document fetches a remote template, object or frame when opened.');
    }
  }

  private judgeInstruction(instruction: string, computed = false): void {
    const name = fieldName(instruction);
    if (PROGRAM_FIELDS.has(name)) {
      throw activeContent('The document holds a DDE field, which starts a program.');
    }
    if (name === DATABASE_FIELD) {
      throw activeContent('The document holds a field that queries an external database.');
    }
    if (!FETCHING_FIELDS.has(name)) {
      return;
    }
    if (computed) {
      throw activeContent('The document holds a field that reads a file whose name another field computes.');
    }
    if (fieldArguments(instruction).some((argument) => isRemoteFieldTarget(argument))) {
      throw activeContent('The document holds a field that fetches a remote file when opened.');
    }
  }
}
