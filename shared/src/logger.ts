import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

// JSON lines on stdout. Headers that carry credentials are redacted wherever they appear, as a
// second line of defence: the code never logs them on purpose.
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-key-service"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-key-service"]',
  'password',
  'token',
  'secret',
];

/** `destination` defaults to stdout; tests pass a stream to read the lines back. */
export function createLogger(
  level: string,
  bindings: Record<string, unknown> = {},
  destination?: DestinationStream,
): Logger {
  const options = { level, base: bindings, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
