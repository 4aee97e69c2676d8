// Macro markers in the OOXML package parts that declare what a document holds: the content types
// (`[Content_Types].xml`) and the relationships (`*.rels`). Renaming `vbaProject.bin` does not help
// an attacker: Office finds the project through these declarations, which we read instead.
import { AppError } from '@intake/shared/errors';
import { XmlPartDecoder } from './xml-encoding.js';

/** Content types of VBA projects, macro-enabled documents and Excel 4 macro sheets. */
const MACRO_CONTENT_TYPE = /contenttype\s*=\s*["'][^"']*(?:macroenabled|vbaproject|vbadata|macrosheet)[^"']*["']/u;
/** Relationship types that attach a VBA project or an Excel 4 macro sheet. */
const MACRO_RELATIONSHIP =
  /type\s*=\s*["']\s*[^"']*\/(?:vbaproject|vbaprojectsignature|wordvbadata|xlmacrosheet|xlintlmacrosheet)\s*["']/u;

/** Raw characters kept from one chunk to the next, so a marker split across chunks is still seen. */
const OVERLAP_CHARS = 4096;

export type OoxmlPartKind = 'content-types' | 'relationships';

/** Which declaration part an entry is, by its name (case-insensitive, as OPC compares part names). */
export function ooxmlPartKind(name: string): OoxmlPartKind | null {
  const lower = name.toLowerCase();
  if (lower === '[content_types].xml') {
    return 'content-types';
  }
  if (lower.endsWith('.rels')) {
    return 'relationships';
  }
  return null;
}

/** XML parsers resolve character references in attribute values: `&#x6D;acroEnabled` is `macroEnabled`. */
function decodeCharacterReferences(text: string): string {
  return text.replace(/&#(x[0-9a-f]+|[0-9]+);/giu, (reference, code: string) => {
    const value = code[0] === 'x' || code[0] === 'X' ? Number.parseInt(code.slice(1), 16) : Number.parseInt(code, 10);
    return value <= 0x10ffff ? String.fromCodePoint(value) : reference;
  });
}

/** Streams one declaration part and throws `archive_macro` as soon as a macro marker shows. */
export class OoxmlPartScanner {
  private readonly pattern: RegExp;
  private readonly decoder = new XmlPartDecoder();
  private tail = '';

  constructor(kind: OoxmlPartKind) {
    this.pattern = kind === 'content-types' ? MACRO_CONTENT_TYPE : MACRO_RELATIONSHIP;
  }

  push(chunk: Uint8Array): void {
    this.scan(this.decoder.push(chunk));
  }

  finish(): void {
    this.scan(this.decoder.finish());
  }

  private scan(text: string): void {
    const window = this.tail + text;
    if (this.pattern.test(decodeCharacterReferences(window).toLowerCase())) {
      throw new AppError('archive_macro', 'The document declares a macro project.');
    }
    this.tail = window.slice(-OVERLAP_CHARS);
  }
}
