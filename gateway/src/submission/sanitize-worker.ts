// A thread of the sanitiser pool (sanitize-pool.ts): the same sanitizeValue, off the event loop.
import { sanitizeValue } from './sanitize.js';

export default function sanitizeInWorker(value: unknown): unknown {
  return sanitizeValue(value);
}
