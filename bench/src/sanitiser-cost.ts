// CPU time of the sanitiser per form, in this process: the HTML case's three fields through
// sanitizeValue, as the gateway runs it, timed with process.cpuUsage over a fixed wall time.
import { sanitizeValue } from '@intake/gateway/sanitize';
import type { Payload } from './payloads.js';

export interface SanitiserFigure {
  forms: number;
  microsPerForm: number;
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function run(fields: unknown, seconds: number): SanitiserFigure {
  const deadline = performance.now() + seconds * 1000;
  const cpuAtStart = cpuMicros();
  let forms = 0;
  while (performance.now() < deadline) {
    // 100 per clock read: the clock costs little beside a sanitised form, but nothing is free.
    for (let i = 0; i < 100; i++) {
      sanitizeValue(fields);
    }
    forms += 100;
  }
  return { forms, microsPerForm: (cpuMicros() - cpuAtStart) / forms };
}

/** One second of warm-up (the jsdom window, JIT), then `seconds` measured. */
export function sanitiserCost(payload: Payload, seconds: number): SanitiserFigure {
  const fields = JSON.parse(payload.body.toString('utf8')) as unknown;
  run(fields, 1);
  return run(fields, seconds);
}
