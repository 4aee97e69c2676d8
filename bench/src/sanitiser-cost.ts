// CPU time of the sanitiser per form, in this process: the HTML case's three fields through
// sanitizeSubmission, as the gateway runs it (see cpu-per-call.ts for how it is timed).
import { sanitizeSubmission } from '@intake/gateway/sanitize';
import { cpuPerCall } from './cpu-per-call.js';
import type { Payload } from './payloads.js';

export interface SanitiserFigure {
  forms: number;
  microsPerForm: number;
}

/** One second of warm-up (the jsdom window, JIT), then `seconds` measured. */
export function sanitiserCost(payload: Payload, seconds: number): SanitiserFigure {
  const fields = JSON.parse(payload.body.toString('utf8')) as unknown;
  const { calls, micros } = cpuPerCall(() => sanitizeSubmission(fields), seconds);
  return { forms: calls, microsPerForm: micros };
}
