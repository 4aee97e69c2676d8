// Whom a reply to a notification e-mail reaches: the submitter, when the submission says who that is
// with one plain address (docs/webhooks.md#reply-to). The value is submitted, so it is only ever an
// address, handed to nodemailer as one (never parsed as a list or a display name).
import { fromJsonSchema, type FormJsonSchema } from '@intake/shared/form-shape';
import { decodeStoredText } from '@intake/shared/stored-text';

// A dot-atom local part and a dotted host name, ASCII only: no display name, no list, no comment, no
// quoted local part, nothing a header could be broken with. Narrower than the gateway's `format: email`
// (ajv) only in wanting a dot in the domain: `ada@localhost` is no address to reply to.
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const PLAIN_ADDRESS = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`);
const LOCAL_MAX = 64;
const ADDRESS_MAX = 254;

/** The value as one plain address, or undefined: anything else (a list, a name, a line break) is no address. */
function plainAddress(value: unknown): string | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const address = decodeStoredText(value).trim();
  const local = address.slice(0, address.lastIndexOf('@'));
  return address.length <= ADDRESS_MAX && local.length <= LOCAL_MAX && PLAIN_ADDRESS.test(address)
    ? address
    : undefined;
}

/** The field a form names as the submitter's address: its first declared EMAIL field, else `email`. */
function submitterField(shape: FormJsonSchema | null): string {
  const declared = shape ? fromJsonSchema(shape).find((field) => field.type === 'email') : undefined;
  return declared?.name ?? 'email';
}

/**
 * `_replyto` (what a page written for another service sends, docs/static-sites.md), then the submitter's
 * field: the first of them holding one plain address.
 */
export function replyToAddress(data: Record<string, unknown>, shape: FormJsonSchema | null): string | undefined {
  const field = submitterField(shape);
  return plainAddress(data._replyto) ?? (Object.hasOwn(data, field) ? plainAddress(data[field]) : undefined);
}
