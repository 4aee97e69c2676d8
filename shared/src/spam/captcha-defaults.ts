import type { CaptchaProvider } from '../entities/form.js';

/** The field carrying the visitor's answer, as each provider's widget names it. */
export const DEFAULT_CAPTCHA_RESPONSE_FIELDS: Readonly<Record<CaptchaProvider, string>> = {
  turnstile: 'cf-turnstile-response',
  hcaptcha: 'h-captcha-response',
  recaptcha_v2: 'g-recaptcha-response',
  recaptcha_v3: 'g-recaptcha-response',
};

/** reCAPTCHA v3 answers scored below this are refused when the form sets no minimum (Google's suggestion). */
export const DEFAULT_RECAPTCHA_V3_MIN_SCORE = 0.5;
