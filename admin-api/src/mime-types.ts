// The 12 file types the gateway knows (CONTRACT.md §3): a form's `allowedMimeTypes` may only narrow
// this list. A local copy on purpose: the admin API must not import from the gateway, and the
// canonical list lives in gateway/src/files/mime-types.ts. Keep both in step (or move the list to
// `@intake/shared` once it exports one).
export const DEFAULT_ALLOWED_MIME_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/zip',
  'application/vnd.rar',
  'application/x-7z-compressed',
  'text/plain',
];

const KNOWN = new Set<string>(DEFAULT_ALLOWED_MIME_TYPES);

export function isKnownMimeType(value: string): boolean {
  return KNOWN.has(value);
}
