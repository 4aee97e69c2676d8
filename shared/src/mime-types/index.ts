// The file types the service knows (docs/intake-api.md, the 12 default allowed types) and the extensions
// that name them. A form may only narrow this list; the admin API validates a form's
// `allowedMimeTypes` with `isKnownMimeType()`.

export const MIME_JPEG = 'image/jpeg';
export const MIME_PNG = 'image/png';
export const MIME_GIF = 'image/gif';
export const MIME_WEBP = 'image/webp';
export const MIME_PDF = 'application/pdf';
export const MIME_DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const MIME_XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MIME_PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
export const MIME_ZIP = 'application/zip';
export const MIME_RAR = 'application/vnd.rar';
export const MIME_7Z = 'application/x-7z-compressed';
export const MIME_TEXT = 'text/plain';

export const DEFAULT_ALLOWED_MIME_TYPES = [
  MIME_JPEG,
  MIME_PNG,
  MIME_GIF,
  MIME_WEBP,
  MIME_PDF,
  MIME_DOCX,
  MIME_XLSX,
  MIME_PPTX,
  MIME_ZIP,
  MIME_RAR,
  MIME_7Z,
  MIME_TEXT,
] as const;

export type KnownMimeType = (typeof DEFAULT_ALLOWED_MIME_TYPES)[number];

// Only `txt` names text/plain: `csv` is text/csv (and carries formula injection into spreadsheets),
// `log`, `md`, `json`… are other types. Adding one later is a deliberate contract change.
// A Map, not an object literal: an extension such as `constructor` must not find a prototype member.
export const MIME_TYPE_BY_EXTENSION: ReadonlyMap<string, KnownMimeType> = new Map<string, KnownMimeType>([
  ['jpg', MIME_JPEG],
  ['jpeg', MIME_JPEG],
  ['png', MIME_PNG],
  ['gif', MIME_GIF],
  ['webp', MIME_WEBP],
  ['pdf', MIME_PDF],
  ['docx', MIME_DOCX],
  ['xlsx', MIME_XLSX],
  ['pptx', MIME_PPTX],
  ['zip', MIME_ZIP],
  ['rar', MIME_RAR],
  ['7z', MIME_7Z],
  ['txt', MIME_TEXT],
]);

const KNOWN = new Set<string>(DEFAULT_ALLOWED_MIME_TYPES);

/** True for one of the 12 types, in its canonical lower-case spelling (no parameters). */
export function isKnownMimeType(value: string): value is KnownMimeType {
  return KNOWN.has(value);
}

/** The MIME type an extension (lower case, without the dot) names, if it is one we know. */
export function mimeTypeForExtension(extension: string): KnownMimeType | undefined {
  return MIME_TYPE_BY_EXTENSION.get(extension);
}

/** The extensions that name a MIME type (e.g. `['jpg', 'jpeg']`). */
export function extensionsForMimeType(mimeType: string): string[] {
  return [...MIME_TYPE_BY_EXTENSION].filter(([, mime]) => mime === mimeType).map(([extension]) => extension);
}
