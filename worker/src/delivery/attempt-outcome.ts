// What one attempt at a delivery came to, whatever the channel: recorded in the delivery log.

/** At most this much of a receiver's answer is kept. */
export const RESPONSE_LOG_BYTES = 1024;

export interface AttemptOutcome {
  succeeded: boolean;
  /** The HTTP status, when the receiver answered. */
  statusCode: number | null;
  /** Why the attempt failed, in a few words (never a secret or a submitted value). */
  error: string | null;
  /** The start of the receiver's answer (HTTP body or SMTP reply), as text. */
  response: string | null;
  durationMs: number;
}

/** Text for the log: cut to RESPONSE_LOG_BYTES, without NUL (which PostgreSQL text refuses). */
export function logText(bytes: Buffer | string): string {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return buffer
    .subarray(0, RESPONSE_LOG_BYTES)
    .toString('utf8')
    .replace(/\u0000/g, '\uFFFD');
}
