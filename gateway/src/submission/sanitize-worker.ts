// A thread of the sanitiser pool (sanitize-pool.ts): the same sanitizeSubmission, off the event loop.
import { sanitizeSubmission, type SanitizedSubmission } from './sanitize.js';

export default function sanitizeInWorker(value: unknown): SanitizedSubmission {
  return sanitizeSubmission(value);
}
