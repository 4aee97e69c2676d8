// CPU time of the sanitiser per form: the HTML case's three fields through sanitizeSubmission, as the
// gateway runs it, and where it goes. Beside the whole call, two of its steps are timed alone on the
// same reused jsdom workspace (purifyUpTo): jsdom's parse of each string that needs the parser (all
// three here), then the parse with DOMPurify's walk. The walk is the second less the first; the rest
// (serialising the text, escaping, Intake's checks) is the whole less the second. The three are timed
// in alternated rounds (cpu-per-call.ts) so the machine's load falls on each alike. The bench runs
// this in a fresh process (sanitiser-cost-process.ts): see docs/performance.md for why.
import { needsParser, purifyUpTo, sanitizeSubmission } from '@intake/gateway/sanitize';
import { cpuPerCallAlternated } from './cpu-per-call.js';
import { measureInFreshProcess } from './fresh-process.js';
import type { Payload } from './payloads.js';
import type { ProcessTarget } from './process-memory.js';

export interface SanitiserFigure {
  forms: number;
  /** sanitizeSubmission of the form, CPU µs (all threads). */
  microsPerForm: number;
  /** jsdom's parse of the form's markup alone: innerHTML into the reused element, emptied after. */
  parseMicros: number;
  /** The parse, then DOMPurify's walk over the parsed nodes; no serialisation. */
  parseAndWalkMicros: number;
  /** Of microsPerForm, the main thread's; the rest is V8's helper threads (garbage collection). */
  mainThreadMicrosPerForm: number;
  /**
   * The main thread's CPU over the wall time of the whole calls (cpu-per-call.ts): near 1 on a quiet
   * machine; lower when other processes took turns on the core, which reads as more CPU per form.
   */
  mainThreadShare: number;
}

/** One part of the sanitiser's CPU per form; the parts add up to microsPerForm. */
export interface SanitiserPart {
  part: string;
  micros: number;
}

export const SANITISER_TARGET_MICROS = 300;

/** One unmeasured second for each step (the jsdom window, the JIT), then `seconds` measured each. */
export function sanitiserCost(payload: Payload, seconds: number): SanitiserFigure {
  const fields = JSON.parse(payload.body.toString('utf8')) as Record<string, unknown>;
  const markup = Object.values(fields).filter(
    (value): value is string => typeof value === 'string' && needsParser(value),
  );
  const upTo = (step: 'parse' | 'walk') => () => {
    for (const html of markup) {
      purifyUpTo(html, step);
    }
  };
  const { whole, parse, parseAndWalk } = cpuPerCallAlternated(
    { whole: () => sanitizeSubmission(fields), parse: upTo('parse'), parseAndWalk: upTo('walk') },
    seconds,
    3,
  );
  return {
    forms: whole.calls,
    microsPerForm: whole.micros,
    parseMicros: parse.micros,
    parseAndWalkMicros: parseAndWalk.micros,
    mainThreadMicrosPerForm: whole.mainThreadMicros,
    mainThreadShare: whole.mainThreadShare,
  };
}

/** sanitiserCost in a fresh process of its own (sanitiser-cost-process.ts), as the bench runs it. */
export async function measureSanitiserCostApart(seconds: number): Promise<SanitiserFigure> {
  return measureInFreshProcess(
    new URL('./sanitiser-cost-process.js', import.meta.url),
    [String(seconds)],
    "the sanitiser's process",
  );
}

/** The sanitiser's CPU per form in three parts, each a difference of steps timed in the same run. */
export function sanitiserParts(figure: SanitiserFigure): SanitiserPart[] {
  return [
    { part: "jsdom's parse (innerHTML into the reused element)", micros: figure.parseMicros },
    {
      part: "DOMPurify's walk (with moving the parsed nodes into its fragment)",
      micros: figure.parseAndWalkMicros - figure.parseMicros,
    },
    {
      part: "the rest: serialising the text, escaping, Intake's checks",
      micros: figure.microsPerForm - figure.parseAndWalkMicros,
    },
  ];
}

export function sanitiserTarget(figure: SanitiserFigure): ProcessTarget {
  return {
    case: 'sanitiser, the 3 HTML fields of one form (a fresh process)',
    measured: `${figure.microsPerForm.toFixed(0)} µs CPU per form`,
    target: `≤ ${SANITISER_TARGET_MICROS} µs`,
    met: figure.microsPerForm <= SANITISER_TARGET_MICROS,
    figures: { ...figure },
  };
}
