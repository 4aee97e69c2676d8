// The field declarations the admin API's inputs and the command line's setup file share: the checks
// and bounds of names, spam protection, notifications, declared fields and browser posting, in one place so the two
// never disagree. It imports nothing but zod (and the pure constants of form-shape and lifecycle's
// retention period): the packed command line carries a copy of it (cli/scripts/copy-shared.js),
// since it is installed without the rest of the kernel.
export { DESCRIPTION_MAX_LENGTH, NOTIFY_EMAILS_MAX, description, notifyEmails } from './delivery.js';
export {
  BLOCKED_WORD_MAX_LENGTH,
  BLOCKED_WORDS_MAX,
  CAPTCHA_SECRET_MAX_LENGTH,
  DUPLICATE_WINDOW_MAX_SECONDS,
  FIELD_NAME_MAX_LENGTH,
  HONEYPOT_FIELDS_MAX,
  MAX_LINKS_MAX,
  blockedWords,
  captchaSecret,
  honeypotFields,
  minScore,
  optionalCount,
  responseField,
} from './spam.js';
export {
  BROWSER_CHALLENGE_MODES,
  BROWSER_ORIGINS_MAX,
  BROWSER_TEXT_DEFAULTS,
  BROWSER_TEXT_MAX_LENGTH,
  CHALLENGE_DIFFICULTY_DEFAULT,
  CHALLENGE_DIFFICULTY_MAX,
  CHALLENGE_DIFFICULTY_MIN,
  RESERVED_FIELDS,
  THANK_YOU_URL_MAX_LENGTH,
  THANK_YOU_URLS_MAX,
  browserOrigins,
  browserTexts,
  challengeDifficulty,
  isLoopbackHost,
  normaliseOrigin,
  normaliseThankYouUrl,
  thankYouUrls,
  type BrowserChallengeMode,
  type BrowserTextKey,
  type BrowserTexts,
} from './browser.js';
export { NAME_MAX_LENGTH, codePoints, fail, isPlainText, name, wholeNumber } from './text.js';
export { CHOICE_MAX_LENGTH, CHOICES_MAX, DECLARED_FIELDS_MAX, FIELD_MAX_LENGTH_MAX } from '../form-shape/index.js';
export { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from '../lifecycle/retention-period.js';
