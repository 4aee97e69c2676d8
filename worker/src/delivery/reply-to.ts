// Whom a reply to a notification e-mail reaches: the submitter, when the submission says who that is
// with one plain address (docs/webhooks.md#reply-to). The value is submitted, so it is only ever an
// address, handed to nodemailer as one (never parsed as a list or a display name).
import { plainAddress } from '@intake/shared/delivery';
import { fromJsonSchema, type FormJsonSchema } from '@intake/shared/form-shape';

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
