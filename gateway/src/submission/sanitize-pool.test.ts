// The sanitiser's worker threads: a value whose markup is costly to parse is sanitised off the event
// loop, to exactly what sanitizeSubmission gives inline, and a saturated pool answers 503 instead of
// queueing without bound. The threads run the build (`npx tsc -b`).
import { AppError } from '@intake/shared/errors';
import { createSanitiserPool, INLINE_MARKUP_COST, type SanitiserPool } from './sanitize-pool.js';
import { markupCost, MAX_VALUE_MARKUP_COST, sanitizeSubmission } from './sanitize.js';
import { XSS_CORPUS } from '../test/xss-corpus.js';

/** Markup enough to send a value to a thread: one tag costs 2 (see parseCost in sanitize.ts). */
const COSTLY_PADDING = '<p>padding'.repeat(INLINE_MARKUP_COST);
/** A value at the whole parse budget: 32 strings of 511 tags, seconds of jsdom work. */
const AT_BUDGET = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`field${index}`, '<p>x'.repeat(511)]));

let pool: SanitiserPool;

beforeAll(() => {
  pool = createSanitiserPool({ maxThreads: 1, maxQueued: 64 });
});

afterAll(async () => {
  await pool.close();
});

describe('the sanitiser pool', () => {
  it('decides by the parse cost sanitizeValue would spend', () => {
    expect(markupCost({ plain: 'a < b & c', none: 42 })).toBe(0);
    expect(markupCost({ padded: COSTLY_PADDING })).toBeGreaterThan(INLINE_MARKUP_COST);
    expect(markupCost(AT_BUDGET)).toBeLessThanOrEqual(MAX_VALUE_MARKUP_COST);
    expect(markupCost(AT_BUDGET)).toBeGreaterThan(MAX_VALUE_MARKUP_COST - 512);
  });

  it('gives every XSS corpus vector, sanitised in a thread, exactly what sanitizeSubmission gives inline', async () => {
    const values = XSS_CORPUS.map(({ vector }) => ({ padding: COSTLY_PADDING, nested: [{ vector }], vector }));
    expect(values.every((value) => markupCost(value) > INLINE_MARKUP_COST)).toBe(true);
    // In batches within the queue's bound (the last test shows what happens beyond it).
    const threaded: unknown[] = [];
    for (let start = 0; start < values.length; start += 32) {
      threaded.push(...(await Promise.all(values.slice(start, start + 32).map((value) => pool.sanitize(value)))));
    }
    expect(threaded).toEqual(values.map((value) => sanitizeSubmission(value)));
  }, 120_000);

  it('keeps the event loop turning while a value at the parse budget is sanitised', async () => {
    let turns = 0;
    const timer = setInterval(() => (turns += 1), 5);
    try {
      const sanitised = await pool.sanitize(AT_BUDGET);
      // Sanitised inline, the parse would hold this thread from start to end: no timer could fire.
      expect(turns).toBeGreaterThan(0);
      expect(sanitised).toEqual(sanitizeSubmission(AT_BUDGET));
    } finally {
      clearInterval(timer);
    }
  }, 120_000);

  it('answers 503 service_unavailable when more costly values wait than it queues', async () => {
    const small = createSanitiserPool({ maxThreads: 1, maxQueued: 1 });
    try {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, () => small.sanitize({ padding: COSTLY_PADDING })),
      );
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(refused.length).toBeGreaterThan(0);
      for (const outcome of refused) {
        const error = (outcome as PromiseRejectedResult).reason as AppError;
        expect(error).toBeInstanceOf(AppError);
        expect(error.code).toBe('service_unavailable');
      }
      const expected = sanitizeSubmission({ padding: COSTLY_PADDING });
      for (const outcome of outcomes.filter((each) => each.status === 'fulfilled')) {
        expect(outcome.value).toEqual(expected);
      }
      expect(outcomes.length - refused.length).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  }, 120_000);
});
