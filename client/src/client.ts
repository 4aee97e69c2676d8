// A site backend's client of the Intake gateway (docs/client.md): `submit` posts one submission to
// `POST /api/v1/send/:code` with the API key and the site token, with an Idempotency-Key made for it
// when none is given, and tries again on 429, 503 and network failures with that same key, so a retry
// is answered with the first submission's id and never stores a second one. A redirect is never
// followed (redirect.ts): the credentials and the submission go only to the configured URL.
import type { StoredFileDescription } from '#contract';
import { submissionBody, type Fields, type IntakeFile } from './body.js';
import { problemOf } from './problem.js';
import { isRedirect, redirectError } from './redirect.js';
import {
  delayBeforeRetry,
  RETRIED_STATUSES,
  RETRY_DEFAULTS,
  retryAfterSeconds,
  sleep,
  type RetryOptions,
} from './retry.js';

export interface IntakeClientOptions {
  /** The gateway's origin, e.g. `https://intake.example.com` (a path prefix is kept). */
  url: string | URL;
  /** The service's API key, sent as `X-KEY-SERVICE`. */
  apiKey: string;
  /** The site's token, sent as `Authorization: Bearer …`. */
  siteToken: string;
  retry?: RetryOptions;
  /** Each attempt's deadline (default 30 s); a timed-out attempt is retried like a network failure. */
  timeoutMs?: number;
  /** Replaces the global fetch (a proxy agent, a test double); it must honour `redirect: 'manual'`. */
  fetch?: typeof fetch;
}

export interface SubmitOptions {
  files?: readonly IntakeFile[];
  /**
   * The key the gateway remembers for 24 h on this form: a repeat gets the first answer. Made with
   * crypto.randomUUID() when absent. Pass your own (an order id) to make retries across restarts safe.
   */
  idempotencyKey?: string;
  /** The visitor's address, forwarded for the form's CAPTCHA check (`X-Intake-Client-IP`). */
  clientIp?: string;
  /** Stops waiting and retrying; the submission may or may not have been stored. */
  signal?: AbortSignal;
}

/** A stored file as the gateway describes it (@intake/contract's shape). */
export type StoredFile = StoredFileDescription;

export interface SubmissionResult {
  id: string;
  createdAt: string;
  files: StoredFile[];
  /** Intake's signed statement that it stored this submission: a compact JWS (docs/receipts.md). */
  receipt: string;
  /** The key the request was sent with (yours, or the one made for it). */
  idempotencyKey: string;
  /** How many requests it took (1 when the first was answered). */
  attempts: number;
}

/** Thrown after the last attempt failed without an answer (connection refused, reset, timed out). */
export class IntakeNetworkError extends Error {
  readonly attempts: number;

  constructor(cause: unknown, attempts: number) {
    super(`The gateway could not be reached after ${attempts} attempt${attempts === 1 ? '' : 's'}.`, { cause });
    this.name = 'IntakeNetworkError';
    this.attempts = attempts;
  }
}

export class IntakeClient {
  readonly #endpoint: URL;
  readonly #headers: Record<string, string>;
  readonly #retry: Required<RetryOptions>;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: IntakeClientOptions) {
    const base = new URL(options.url);
    if (!base.pathname.endsWith('/')) {
      base.pathname += '/';
    }
    this.#endpoint = new URL('api/v1/send/', base);
    this.#headers = { 'X-KEY-SERVICE': options.apiKey, Authorization: `Bearer ${options.siteToken}` };
    this.#retry = { ...RETRY_DEFAULTS, ...options.retry };
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /**
   * Posts a submission and returns what the gateway stored, or throws an IntakeProblem (a refusal,
   * or the last 429/503 when the retries ran out), an IntakeNetworkError or an IntakeRedirectError.
   */
  async submit(formCode: string, fields: Fields, options: SubmitOptions = {}): Promise<SubmissionResult> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    const { body, type } = submissionBody(fields, options.files ?? []);
    const headers: Record<string, string> = { ...this.#headers, 'Idempotency-Key': idempotencyKey };
    if (type) {
      headers['Content-Type'] = type;
    }
    if (options.clientIp) {
      headers['X-Intake-Client-IP'] = options.clientIp;
    }
    const url = new URL(encodeURIComponent(formCode), this.#endpoint);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.#retry.attempts;
      let response: Response;
      try {
        const signal = options.signal
          ? AbortSignal.any([options.signal, AbortSignal.timeout(this.#timeoutMs)])
          : AbortSignal.timeout(this.#timeoutMs);
        response = await this.#fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
      } catch (error) {
        if (options.signal?.aborted) {
          throw options.signal.reason;
        }
        if (last) {
          throw new IntakeNetworkError(error, attempt);
        }
        await sleep(delayBeforeRetry(attempt, undefined, this.#retry), options.signal);
        continue;
      }
      if (isRedirect(response)) {
        throw await redirectError(response, url, attempt);
      }
      if (response.ok) {
        const answer = (await response.json()) as Omit<SubmissionResult, 'idempotencyKey' | 'attempts'>;
        return { ...answer, idempotencyKey, attempts: attempt };
      }
      const retryAfter = retryAfterSeconds(response.headers.get('Retry-After'));
      const problem = await problemOf(response, attempt, retryAfter, url);
      const wait = delayBeforeRetry(attempt, retryAfter, this.#retry);
      if (last || !RETRIED_STATUSES.has(response.status) || wait > this.#retry.maxDelayMs) {
        throw problem;
      }
      await sleep(wait, options.signal);
    }
  }
}
