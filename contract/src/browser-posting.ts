// Browser posting (docs/static-sites.md): the modes, bounds, default texts and reserved field names
// that the admin API checks, the gateway enforces, and the command line's setup file and the
// console declare. Plain data only; the checks themselves (zod, the URL parser) are the kernel's.

export const BROWSER_CHALLENGE_MODES = ['required', 'record_only', 'off'] as const;
export type BrowserChallengeMode = (typeof BROWSER_CHALLENGE_MODES)[number];

export const BROWSER_ORIGINS_MAX = 20;
export const THANK_YOU_URLS_MAX = 10;
export const THANK_YOU_URL_MAX_LENGTH = 2000;
/** The average number of key derivations a browser makes to solve a challenge. */
export const CHALLENGE_DIFFICULTY_MIN = 10;
export const CHALLENGE_DIFFICULTY_MAX = 1_000_000;
export const CHALLENGE_DIFFICULTY_DEFAULT = 1_000;

/** The texts of the pages a visitor sees (thank-you and refusal), in the form's own language. */
export const BROWSER_TEXT_DEFAULTS = {
  language: 'en',
  title: 'Thank you',
  message: 'Your submission was received.',
  received: 'Received',
  reference: 'Reference',
  files: 'Files',
  receipt: 'Download your receipt',
  receiptHelp: 'Keep the receipt: it is signed proof of what was received and when.',
  errorTitle: 'Your submission was not sent',
  back: 'Back to the form',
} as const;

export type BrowserTextKey = keyof typeof BROWSER_TEXT_DEFAULTS;
export type BrowserTexts = Partial<Record<BrowserTextKey, string>>;
export const BROWSER_TEXT_MAX_LENGTH = 2000;

/** The reserved field names a form taking browser posts understands (docs/static-sites.md). */
export const RESERVED_FIELDS = {
  /** Where to go after the post: only an address on the form's thank-you list. */
  next: ['_next', '_redirect'],
  /** The subject of the notification e-mail: kept in the stored data as `_subject`. */
  subject: ['_subject'],
  /** The address replies should go to: kept in the stored data as `_replyto`. */
  replyTo: ['_replyto', '_reply_to'],
  /** A honeypot: anything in it makes the submission spam. */
  honeypot: ['_gotcha', '_honey', '_honeypot', 'botcheck'],
  /** Other services' switches that Intake does not honour (a page must not turn a check off): dropped. */
  ignored: ['_captcha', '_cc', '_template', '_format', '_autoresponse', '_webhook', '_blacklist', '_url'],
} as const;
