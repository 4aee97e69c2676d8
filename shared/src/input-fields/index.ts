// The field declarations of the admin API's inputs: the zod checks of names, spam protection,
// notifications and browser posting. Their bounds are @intake/contract's, re-exported here with them; the command line's
// setup file and the console read the same bounds from the contract.
export { confirmationSafeFields, confirmationSubject, confirmationTemplate } from './confirmation.js';
export { description, notifyEmails } from './delivery.js';
export { scheduleTime, submissionCap } from './form-limits.js';
export { blockedWords, captchaSecret, honeypotFields, minScore, optionalCount, responseField } from './spam.js';
export { codePoints, fail, isPlainText, name, wholeNumber } from './text.js';
export {
  browserOrigins,
  browserText,
  browserTexts,
  challengeDifficulty,
  isLoopbackHost,
  normaliseOrigin,
  normaliseThankYouUrl,
  thankYouUrls,
} from './browser.js';
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
  type BrowserChallengeMode,
  type BrowserTextKey,
  type BrowserTexts,
  BLOCKED_WORD_MAX_LENGTH,
  BLOCKED_WORDS_MAX,
  CAPTCHA_SECRET_MAX_LENGTH,
  CHOICE_MAX_LENGTH,
  CHOICES_MAX,
  DECLARED_FIELDS_MAX,
  DESCRIPTION_MAX_LENGTH,
  DUPLICATE_WINDOW_MAX_SECONDS,
  FIELD_MAX_LENGTH_MAX,
  FIELD_NAME_MAX_LENGTH,
  HONEYPOT_FIELDS_MAX,
  MAX_LINKS_MAX,
  NAME_MAX_LENGTH,
  NOTIFY_EMAILS_MAX,
  PASSKEY_NAME_MAX_LENGTH,
  RETENTION_DAYS_MAX,
  RETENTION_DAYS_MIN,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_QUERY_MIN_LENGTH,
  SUBMISSION_CAP_MAX,
  SUBMISSION_CAP_MIN,
} from '@intake/contract';
