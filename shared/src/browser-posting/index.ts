// What a form's browser posting settings come to once the defaults are filled in: read the same way
// by the gateway (which enforces them) and the admin API (which shows them).
import type { Config } from '../config/types.js';
import type { Form } from '../entities/form.js';
import { BROWSER_TEXT_DEFAULTS, CHALLENGE_DIFFICULTY_DEFAULT, type BrowserTextKey } from '@intake/contract';

export interface BrowserLimits {
  maxBodySize: number;
  maxFileSize: number;
  maxFiles: number;
}

type LimitSettings = Pick<Form, 'maxFileSize' | 'browserMaxBodySize' | 'browserMaxFileSize' | 'browserMaxFiles'>;

/**
 * The limits of a browser post to this form: the form's own, else BROWSER_*; never above the
 * limits every post has (MAX_*, and the form's own maxFileSize).
 */
export function browserLimitsOf(form: LimitSettings, config: Pick<Config, 'limits' | 'browser'>): BrowserLimits {
  const { limits, browser } = config;
  return {
    maxBodySize: Math.min(form.browserMaxBodySize ?? browser.maxBodySize, limits.maxBodySize),
    maxFileSize: Math.min(
      form.browserMaxFileSize ?? browser.maxFileSize,
      form.maxFileSize ?? limits.maxFileSize,
      limits.maxFileSize,
    ),
    maxFiles: Math.min(form.browserMaxFiles ?? browser.maxFiles, limits.maxFiles),
  };
}

export function challengeDifficultyOf(form: Pick<Form, 'browserChallengeDifficulty'>): number {
  return form.browserChallengeDifficulty ?? CHALLENGE_DIFFICULTY_DEFAULT;
}

/** Every text of the visitor's pages: the form's own where set, the default otherwise. */
export type { BrowserTextKey };

export function browserTextsOf(form: Partial<Pick<Form, 'browserTexts'>>): Record<BrowserTextKey, string> {
  const own = form.browserTexts ?? {};
  const texts = { ...BROWSER_TEXT_DEFAULTS } as Record<BrowserTextKey, string>;
  for (const key of Object.keys(BROWSER_TEXT_DEFAULTS) as BrowserTextKey[]) {
    const value = own[key];
    if (typeof value === 'string' && value !== '') {
      texts[key] = value;
    }
  }
  return texts;
}

/** The gateway's routes for browsers (docs/static-sites.md), besides `POST /api/v1/send/:code`. */
export const BROWSER_PATHS = {
  challenge: (code: string) => `/api/v1/challenge/${encodeURIComponent(code)}`,
  thanks: (code: string) => `/api/v1/thanks/${encodeURIComponent(code)}`,
  widget: '/browser/altcha.js',
  script: '/browser/intake-form.js',
} as const;

/** The form field that carries the challenge's answer (the widget's default name). */
export const CHALLENGE_FIELD = 'altcha';
