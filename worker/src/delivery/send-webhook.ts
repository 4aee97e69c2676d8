// One webhook request: POST of the signed JSON body, only over http/https, through the SSRF
// guard, with one deadline for everything (resolving, connecting, sending, the answer's head), no
// redirect followed (a 3xx is a failure) and no connection reuse. Only 2xx counts as delivered.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { logText, RESPONSE_LOG_BYTES, type AttemptOutcome } from './attempt-outcome.js';
import { AddressRefusedError, assertAllowedHost, guardedLookup } from '@intake/shared/delivery';

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface SendWebhookOptions {
  timeoutMs: number;
  allowPrivateAddresses: boolean;
}

const USER_AGENT = 'Intake-Webhooks/1';

// Local: it only tells describeFailure that our own timer ended the request; no client sees it.
class DeadlineError extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof DeadlineError || error instanceof AddressRefusedError) {
    return error.message;
  }
  if (error instanceof Error && error.message.startsWith('timed out')) {
    return `timed out after ${timeoutMs} ms`;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // Codes only (ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED, …): messages may echo the URL.
  return code ? `network error: ${code}` : 'network error';
}

export async function sendWebhook(request: WebhookRequest, options: SendWebhookOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (error: string, statusCode: number | null = null, response: string | null = null) => ({
    succeeded: false,
    statusCode,
    error,
    response,
    durationMs: elapsed(),
  });

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failure('invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return failure(`scheme ${url.protocol.replace(/:$/, '')} is not allowed`);
  }
  try {
    assertAllowedHost(url.hostname, options.allowPrivateAddresses);
  } catch (error) {
    return failure((error as Error).message);
  }

  const client = url.protocol === 'https:' ? https : http;
  const body = Buffer.from(request.body, 'utf8');
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: AttemptOutcome) => {
      if (!settled) {
        settled = true;
        clearTimeout(deadline);
        resolve(outcome);
      }
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(options.allowPrivateAddresses),
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': USER_AGENT,
        },
      },
      (res) => {
        const statusCode = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        const finish = () => {
          const response = logText(Buffer.concat(chunks));
          req.destroy();
          if (statusCode >= 200 && statusCode < 300) {
            settle({ succeeded: true, statusCode, error: null, response, durationMs: elapsed() });
          } else if (statusCode >= 300 && statusCode < 400) {
            settle(failure('redirect not followed', statusCode, response));
          } else {
            settle(failure(`HTTP ${statusCode}`, statusCode, response));
          }
        };
        res.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_LOG_BYTES) {
            chunks.push(chunk);
            kept += chunk.length;
          }
          // Enough for the log: the rest of a large answer is not waited for.
          if (kept >= RESPONSE_LOG_BYTES) {
            finish();
          }
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const deadline = setTimeout(() => req.destroy(new DeadlineError(options.timeoutMs)), options.timeoutMs);
    req.on('error', (error) => settle(failure(describeFailure(error, options.timeoutMs))));
    req.end(body);
  });
}
