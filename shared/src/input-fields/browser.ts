// Browser posting (docs/static-sites.md): how each setting that lets a form take posts straight
// from visitors' browsers is checked (its bounds are @intake/contract's). Origins and thank-you addresses are
// exact: stored in the URL parser's own spelling, compared as stored, never as patterns.
import {
  BROWSER_ORIGINS_MAX,
  BROWSER_TEXT_DEFAULTS,
  BROWSER_TEXT_MAX_LENGTH,
  CHALLENGE_DIFFICULTY_MAX,
  CHALLENGE_DIFFICULTY_MIN,
  THANK_YOU_URL_MAX_LENGTH,
  THANK_YOU_URLS_MAX,
  type BrowserTextKey,
  type BrowserTexts,
} from '@intake/contract';
import { z } from 'zod';
import { codePoints, fail, isPlainText, wholeNumber } from './text.js';

/** Hosts that plain http is allowed for: the machine itself (an author's preview, the tests). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** https, or http on a loopback host; null for anything else. */
function webUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  // A host name (punycode once parsed) or an IPv6 address: never a pattern such as `*.example.org`.
  const host = /^([a-z0-9-]+\.)*[a-z0-9-]+$/.test(url.hostname) || /^\[[0-9a-f:.]+\]$/.test(url.hostname);
  return secure && host && url.username === '' && url.password === '' ? url : null;
}

/**
 * An exact origin (`https://www.example.org`, `http://localhost:1313`) in the parser's spelling:
 * lower case, punycode, the default port left out. Null when the text is not one.
 */
export function normaliseOrigin(value: string): string | null {
  const url = webUrl(value);
  if (url === null || url.pathname !== '/' || url.search !== '' || url.hash !== '' || value.trim().endsWith('#')) {
    return null;
  }
  return url.origin;
}

/** A thank-you address as stored and compared: the parser's spelling. Null when not allowed. */
export function normaliseThankYouUrl(value: string): string | null {
  if (value.length > THANK_YOU_URL_MAX_LENGTH) {
    return null;
  }
  const url = webUrl(value);
  return url === null ? null : url.href;
}

function listOf(max: number, normalise: (value: string) => string | null, problem: string) {
  return z
    .array(z.string())
    .nullable()
    .transform((values, context): string[] | null => {
      if (values === null || values.length === 0) {
        return null;
      }
      if (values.length > max) {
        return fail(context, `must hold at most ${max} entries`);
      }
      const result: string[] = [];
      for (const value of values) {
        const normalised = normalise(value);
        if (normalised === null) {
          return fail(context, problem);
        }
        if (!result.includes(normalised)) {
          result.push(normalised);
        }
      }
      return result;
    });
}

/** The origins whose pages may post to the form; null or [] for none. */
export const browserOrigins = listOf(
  BROWSER_ORIGINS_MAX,
  normaliseOrigin,
  'must hold origins such as https://www.example.org: https (http only on localhost or 127.0.0.1), no path',
);

/** Where a browser is sent after a post: the first by default, another only when `_next` names it. */
export const thankYouUrls = listOf(
  THANK_YOU_URLS_MAX,
  normaliseThankYouUrl,
  `must hold addresses such as https://www.example.org/thanks: https (http only on localhost or 127.0.0.1), at most ${THANK_YOU_URL_MAX_LENGTH} characters`,
);

/** The average attempts a challenge takes; null means the default. */
export const challengeDifficulty = wholeNumber(CHALLENGE_DIFFICULTY_MIN, CHALLENGE_DIFFICULTY_MAX).nullable();

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

/** One text: trimmed plain text, or null for the default. */
export function browserText(key: BrowserTextKey) {
  return z
    .string()
    .nullable()
    .optional()
    .transform((value, context): string | null | undefined => {
      if (value === null || value === undefined || value.trim() === '') {
        return value === undefined ? undefined : null;
      }
      const text = value.trim();
      if (key === 'language') {
        return LANGUAGE_TAG.test(text) ? text : fail(context, 'must be a language tag such as en or de-CH');
      }
      if (codePoints(text) > BROWSER_TEXT_MAX_LENGTH || !isPlainText(text.replace(/\r?\n/g, ' '))) {
        return fail(context, `must be 1 to ${BROWSER_TEXT_MAX_LENGTH} characters without control characters`);
      }
      return text;
    });
}

/** The texts a form sets (each optional; null or absent keeps the default); null resets them all. */
export const browserTexts = z
  .object(
    Object.fromEntries(
      (Object.keys(BROWSER_TEXT_DEFAULTS) as BrowserTextKey[]).map((key) => [key, browserText(key)]),
    ) as Record<BrowserTextKey, ReturnType<typeof browserText>>,
  )
  .nullable()
  .transform((value): BrowserTexts | null => {
    if (value === null) {
      return null;
    }
    const set = Object.entries(value).filter(
      (entry): entry is [BrowserTextKey, string] => typeof entry[1] === 'string',
    );
    return set.length === 0 ? null : Object.fromEntries(set);
  });
