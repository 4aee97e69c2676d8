// The bounds of what people type, which the admin API enforces (its zod inputs, in
// shared/src/input-fields and the resolvers), the command line's setup file declares (cli/src/setup)
// and the console's inputs hold to: lengths in Unicode code points, counts, ranges.

/** A display name: a site, a form, a team, a member. */
export const NAME_MAX_LENGTH = 200;
/** A webhook's description. */
export const DESCRIPTION_MAX_LENGTH = 500;
/** Addresses notified of each submission. */
export const NOTIFY_EMAILS_MAX = 10;

/** A form's retention period, in days. */
export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 3650;

/** Declared fields: how many, their choices, and the longest maximum length (the gateway's 64 KiB
 * string limit holds at least this many characters). */
export const DECLARED_FIELDS_MAX = 100;
export const CHOICES_MAX = 100;
export const CHOICE_MAX_LENGTH = 200;
export const FIELD_MAX_LENGTH_MAX = 16_384;

/** Spam protection: a field name (honeypot, CAPTCHA answer), the lists, the secret, the rules' ranges. */
export const FIELD_NAME_MAX_LENGTH = 100;
export const HONEYPOT_FIELDS_MAX = 20;
export const BLOCKED_WORDS_MAX = 200;
export const BLOCKED_WORD_MAX_LENGTH = 100;
export const CAPTCHA_SECRET_MAX_LENGTH = 500;
export const DUPLICATE_WINDOW_MAX_SECONDS = 30 * 24 * 60 * 60;
export const MAX_LINKS_MAX = 1000;

/** A passkey's name. */
export const PASSKEY_NAME_MAX_LENGTH = 100;

/** The inbox's search words (trigram matching needs three characters to use its index). */
export const SEARCH_QUERY_MIN_LENGTH = 3;
export const SEARCH_QUERY_MAX_LENGTH = 200;
