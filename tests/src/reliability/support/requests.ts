// The requests the load runs send, and what they expect back: JSON and multipart submissions that
// each carry a unique `seq`, so a stored submission can be matched to the request that made it.
import { createHash } from 'node:crypto';
import { pdf, png, text } from '@intake/test-files';

export interface Credentials {
  url: string;
  apiKey: string;
  token: string;
  formCode: string;
}

export interface SentFile {
  field: string;
  name: string;
  sha256: string;
}

export interface Outcome {
  seq: string;
  status: number;
  /** The problem code of a refusal, or the submission id of a 201. */
  code?: string;
  id?: string;
  retryAfter?: string | null;
  contentType?: string | null;
  files: SentFile[];
  answeredFiles?: { sha256: string }[];
  /** A network failure (connection reset, refused) instead of an answer. */
  failed?: string;
  /** performance.now() when the request was sent and when its answer was read. */
  startedAt: number;
  endedAt: number;
}

function headersFor(credentials: Credentials): Record<string, string> {
  return { 'X-KEY-SERVICE': credentials.apiKey, Authorization: `Bearer ${credentials.token}` };
}

async function post(
  credentials: Credentials,
  body: BodyInit,
  headers: Record<string, string>,
  seq: string,
  files: SentFile[],
): Promise<Outcome> {
  const startedAt = performance.now();
  let response: Response;
  try {
    response = await fetch(`${credentials.url}/api/v1/send/${credentials.formCode}`, {
      method: 'POST',
      headers: { ...headersFor(credentials), ...headers },
      body,
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    return {
      seq,
      status: 0,
      files,
      failed: String((error as Error).cause ?? error),
      startedAt,
      endedAt: performance.now(),
    };
  }
  const answer = (await response.json().catch(() => ({}))) as {
    id?: string;
    code?: string;
    files?: { sha256: string }[];
  };
  return {
    seq,
    status: response.status,
    ...(answer.code ? { code: answer.code } : {}),
    ...(answer.id ? { id: answer.id } : {}),
    retryAfter: response.headers.get('retry-after'),
    contentType: response.headers.get('content-type'),
    files,
    ...(answer.files ? { answeredFiles: answer.files } : {}),
    startedAt,
    endedAt: performance.now(),
  };
}

export interface SendOptions {
  /** Sent as Idempotency-Key, so a retry of the same request stores it at most once. */
  idempotencyKey?: string;
  /** Size of the PDF a multipart submission carries (default: the smallest one). */
  pdfBytes?: number;
}

function keyHeader(options: SendOptions): Record<string, string> {
  return options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {};
}

export function sendJson(credentials: Credentials, seq: string, options: SendOptions = {}): Promise<Outcome> {
  const body = JSON.stringify({ seq, name: 'Ada Lovelace', email: 'ada@example.test', message: `Hello ${seq}` });
  return post(credentials, body, { 'Content-Type': 'application/json', ...keyHeader(options) }, seq, []);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * A multipart submission with a text file unique to `seq` and a PDF or a PNG. The same `seq` makes
 * the same bytes, so a retry sends the same request.
 */
export function sendMultipart(credentials: Credentials, seq: string, options: SendOptions = {}): Promise<Outcome> {
  const note = text(`note ${seq}\n`);
  const second =
    Number(seq.replace(/\D/g, '')) % 2 === 0
      ? { field: 'attachment', name: `scan-${seq}.pdf`, bytes: pdf(options.pdfBytes), type: 'application/pdf' }
      : { field: 'attachment', name: `photo-${seq}.png`, bytes: png(), type: 'image/png' };
  const parts = [{ field: 'note', name: `note-${seq}.txt`, bytes: note, type: 'text/plain' }, second];
  const body = new FormData();
  body.append('seq', seq);
  body.append('name', 'Ada Lovelace');
  for (const part of parts) {
    body.append(part.field, new Blob([new Uint8Array(part.bytes)], { type: part.type }), part.name);
  }
  const sent = parts.map((part) => ({ field: part.field, name: part.name, sha256: sha256(part.bytes) }));
  return post(credentials, body, keyHeader(options), seq, sent);
}

/** Counts of outcomes by status (and problem code), for assertions that print well. */
export function tally(outcomes: readonly Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const key = outcome.failed
      ? 'network'
      : outcome.code
        ? `${outcome.status} ${outcome.code}`
        : String(outcome.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
