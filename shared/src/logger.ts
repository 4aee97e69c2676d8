import { pino, type Logger } from 'pino';

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

export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({ level, base: bindings, redact: { paths: REDACT, censor: '[redacted]' } });
}
