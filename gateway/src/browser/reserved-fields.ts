// The reserved field names of forms written for other services (docs/static-sites.md), read from a
// browser post when the form allows it: a `_next` address (followed only when it is on the form's
// thank-you list), a subject and a reply-to address kept under one name each, a honeypot, and
// other services' switches dropped (a page must not turn a check off).
import { RESERVED_FIELDS } from '@intake/shared/input-fields';

export interface ReservedFields {
  /** The fields without the reserved ones (a subject and a reply-to kept as `_subject`, `_replyto`). */
  fields: Record<string, unknown>;
  /** The address a `_next` field asked for, unchecked. */
  next: string | undefined;
  /** A reserved honeypot was filled. */
  honeypot: boolean;
}

/** Names the stored data may hold that the form does not declare. */
export const KEPT_RESERVED_FIELDS = ['_subject', '_replyto'] as const;

const ALL: ReadonlyMap<string, keyof typeof RESERVED_FIELDS> = new Map(
  (Object.keys(RESERVED_FIELDS) as (keyof typeof RESERVED_FIELDS)[]).flatMap((kind) =>
    RESERVED_FIELDS[kind].map((name) => [name, kind] as const),
  ),
);

/** A value a person typed: a non-empty string, any number or boolean, or a collection holding one. */
function filled(value: unknown): boolean {
  if (typeof value === 'string') {
    return value !== '';
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return true;
  }
  if (value !== null && typeof value === 'object') {
    return Object.values(value).some(filled);
  }
  return false;
}

function firstText(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
}

export function takeReservedFields(fields: Record<string, unknown>): ReservedFields {
  const kept: Record<string, unknown> = {};
  let next: string | undefined;
  let honeypot = false;
  for (const [key, value] of Object.entries(fields)) {
    const kind = ALL.get(key);
    if (kind === undefined) {
      kept[key] = value;
    } else if (kind === 'next') {
      next ??= firstText(value);
    } else if (kind === 'honeypot') {
      honeypot ||= filled(value);
    } else if (kind === 'subject' || kind === 'replyTo') {
      const text = firstText(value);
      const name = kind === 'subject' ? '_subject' : '_replyto';
      if (text !== undefined && kept[name] === undefined) {
        kept[name] = text;
      }
    }
    // 'ignored': dropped.
  }
  return { fields: kept, next, honeypot };
}
