// Caps and a schedule per form (docs/submissions.md#caps-and-a-schedule): the bounds of the
// settings, and the members a `form_closed` problem carries. Never a submitted value among them.

/** A form's cap, total or per e-mail address: at least one submission, at most a billion. */
export const SUBMISSION_CAP_MIN = 1;
export const SUBMISSION_CAP_MAX = 1_000_000_000;

/** Why a form took no submission: not open yet, closed, full, or full for this sender's address. */
export const FORM_CLOSED_REASONS = ['not_yet_open', 'closed', 'full', 'full_for_address'] as const;
export type FormClosedReason = (typeof FORM_CLOSED_REASONS)[number];

/** The members of a `form_closed` problem besides the usual ones; times are ISO 8601 in UTC. */
export interface FormClosedMembers {
  reason: FormClosedReason;
  /** `not_yet_open`: when the form opens. */
  opensAt?: string;
  /** `closed`: since when the form is closed. */
  closedAt?: string;
}
