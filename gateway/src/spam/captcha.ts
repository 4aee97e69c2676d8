// Server-side verification of a visitor's CAPTCHA answer with the form's provider. All three speak
// the same siteverify protocol: a form-encoded POST of `secret`, `response` and (optionally)
// `remoteip`, answered with JSON `{ success, "error-codes", score?, action?, hostname? }`.
// One undici Agent keeps the connections to the providers alive across requests, so a verification
// costs one round trip rather than a TCP and TLS handshake each time.
import { isIP } from 'node:net';
import type { CaptchaConfig } from '@intake/shared/config';
import type { CaptchaProvider } from '@intake/shared/entities';
import type { Logger } from '@intake/shared/logger';
import { DEFAULT_RECAPTCHA_V3_MIN_SCORE } from '@intake/shared/spam';
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

// undici is loaded on the first verification: most deployments use no CAPTCHA (idle memory).
const require = createRequire(import.meta.url);

// A provider's answer is a few hundred bytes; anything much larger is not a siteverify answer.
const MAX_ANSWER_BYTES = 64 * 1024;

// Error codes that blame our request (the form's secret, a malformed call) or the provider itself,
// not the visitor: refusing the visitor for them would be wrong, so they count as unavailable.
const NOT_THE_VISITORS_FAULT = new Set([
  'missing-input-secret',
  'invalid-input-secret',
  'sitekey-secret-mismatch',
  'bad-request',
  'internal-error',
]);

export type CaptchaVerdict = 'passed' | 'refused' | 'unavailable';

export interface CaptchaCheck {
  provider: CaptchaProvider;
  secret: string;
  /** The visitor's answer, as the site backend forwarded it. */
  response: string;
  /** The visitor's address, when the site backend sent a valid one. */
  remoteIp: string | undefined;
  /** reCAPTCHA v3 only. */
  minScore: number | null;
}

export interface CaptchaVerifier {
  verify(check: CaptchaCheck): Promise<CaptchaVerdict>;
  close(): Promise<void>;
}

interface SiteverifyAnswer {
  success?: unknown;
  'error-codes'?: unknown;
  score?: unknown;
}

/** The visitor's address from the optional X-Intake-Client-IP header; anything but an IP is ignored. */
export function clientIpOf(header: string): string | undefined {
  const value = header.trim();
  return isIP(value) === 0 ? undefined : value;
}

export function createCaptchaVerifier(config: CaptchaConfig, logger: Logger): CaptchaVerifier {
  let client: { undici: typeof Undici; agent: Undici.Agent } | undefined;
  const connect = () => {
    if (client === undefined) {
      const undici = require('undici') as typeof Undici;
      const agent = new undici.Agent({
        keepAliveTimeout: 30_000,
        connect: { timeout: config.timeoutMs },
        headersTimeout: config.timeoutMs,
        bodyTimeout: config.timeoutMs,
      });
      client = { undici, agent };
    }
    return client;
  };
  const urls: Record<CaptchaProvider, string> = {
    turnstile: config.turnstileVerifyUrl,
    hcaptcha: config.hcaptchaVerifyUrl,
    recaptcha_v2: config.recaptchaVerifyUrl,
    recaptcha_v3: config.recaptchaVerifyUrl,
  };

  async function ask(check: CaptchaCheck): Promise<SiteverifyAnswer | undefined> {
    const form = new URLSearchParams({ secret: check.secret, response: check.response });
    if (check.remoteIp !== undefined) {
      form.set('remoteip', check.remoteIp);
    }
    // Loaded before the deadline starts: the first verification's synchronous load of undici (a few
    // hundred ms on a busy machine) is not the provider's time, and counted it failed as a timeout.
    const { undici, agent } = connect();
    // One deadline for connecting, sending and reading the whole answer.
    const signal = AbortSignal.timeout(config.timeoutMs);
    try {
      const answer = await undici.request(urls[check.provider], {
        method: 'POST',
        dispatcher: agent,
        signal,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      });
      if (answer.statusCode < 200 || answer.statusCode >= 300) {
        await answer.body.dump();
        logger.warn({ provider: check.provider, statusCode: answer.statusCode }, 'CAPTCHA provider answered an error');
        return undefined;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_ANSWER_BYTES) {
          answer.body.destroy();
          return undefined;
        }
        chunks.push(chunk as Buffer);
      }
      const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as SiteverifyAnswer) : undefined;
    } catch (error) {
      // Never the error object itself: undici's errors may carry the request, and with it the secret.
      logger.warn(
        { provider: check.provider, reason: signal.aborted ? 'timeout' : (error as Error).name },
        'CAPTCHA provider could not be reached',
      );
      return undefined;
    }
  }

  return {
    async verify(check) {
      const answer = await ask(check);
      if (answer === undefined || typeof answer.success !== 'boolean') {
        return 'unavailable';
      }
      const codes = Array.isArray(answer['error-codes'])
        ? answer['error-codes'].filter((code): code is string => typeof code === 'string')
        : [];
      if (!answer.success) {
        const ours = codes.filter((code) => NOT_THE_VISITORS_FAULT.has(code));
        if (ours.length > 0) {
          logger.warn(
            { provider: check.provider, errorCodes: ours },
            'CAPTCHA provider refused our verification request',
          );
          return 'unavailable';
        }
        return 'refused';
      }
      if (check.provider === 'recaptcha_v3') {
        const minimum = check.minScore ?? DEFAULT_RECAPTCHA_V3_MIN_SCORE;
        if (typeof answer.score !== 'number' || answer.score < minimum) {
          return 'refused';
        }
      }
      return 'passed';
    },
    close: () => client?.agent.close() ?? Promise.resolve(),
  };
}
