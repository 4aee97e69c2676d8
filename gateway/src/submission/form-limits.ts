// A form's cap and schedule (docs/submissions.md#caps-and-a-schedule): whether a form has any, the
// schedule's answer for a moment, and the `form_closed` refusals. The cap itself is claimed in the
// database, in the submission's transaction (capacity.ts); the schedule is checked on the request
// (form-open.ts) and again at the write, against the form's row as committed.
import type { Form } from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';

/** The settings of a form's cap and schedule, as cached or as read fresh in the write. */
export type FormLimits = Pick<
  Form,
  'maxSubmissions' | 'maxSubmissionsPerAddress' | 'capAddressField' | 'opensAt' | 'closesAt'
>;

/** Whether any part is set: such a form is written in its own transaction, never grouped. */
export function hasLimits(form: Partial<FormLimits>): boolean {
  return (
    form.maxSubmissions != null ||
    (form.maxSubmissionsPerAddress != null && form.capAddressField != null) ||
    form.opensAt != null ||
    form.closesAt != null
  );
}

/** `form_closed` when `now` is before the opening or at or after the closing; else null. */
export function scheduleRefusal(form: Partial<FormLimits>, now: Date): AppError | null {
  const opensAt = form.opensAt == null ? null : new Date(form.opensAt);
  const closesAt = form.closesAt == null ? null : new Date(form.closesAt);
  if (opensAt !== null && now < opensAt) {
    const at = opensAt.toISOString();
    return new AppError('form_closed', `This form opens at ${readable(at)}.`, {
      closed: { reason: 'not_yet_open', opensAt: at },
    });
  }
  if (closesAt !== null && now >= closesAt) {
    const at = closesAt.toISOString();
    return new AppError('form_closed', `This form closed at ${readable(at)}.`, {
      closed: { reason: 'closed', closedAt: at },
    });
  }
  return null;
}

/** The form has taken all the submissions it takes. */
export function fullRefusal(): AppError {
  return new AppError('form_closed', 'This form has received all the submissions it accepts.', {
    closed: { reason: 'full' },
  });
}

/** The sender's address has sent all the submissions the form takes from one address. */
export function fullForAddressRefusal(): AppError {
  return new AppError('form_closed', 'This form has received all the submissions it accepts from this address.', {
    closed: { reason: 'full_for_address' },
  });
}

/** `2026-12-01T09:00:00.000Z` as `2026-12-01 09:00 UTC`, for a person reading the detail. */
function readable(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
