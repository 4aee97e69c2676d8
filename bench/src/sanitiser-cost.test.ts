// The sanitiser's figure and its split (sanitiser-cost.ts), on a short run in a fresh process as the
// bench takes it (the compiled child: `npx tsc -b` first). Its speed is never asserted: only that it
// measures, and that the printed parts add up to the measured figure.
import { jest } from '@jest/globals';
import { printSanitiserSplit } from './report.js';
import { measureSanitiserCostApart, sanitiserParts, sanitiserTarget } from './sanitiser-cost.js';

jest.setTimeout(60_000);

describe('bench sanitiser cost', () => {
  it('times the whole sanitiser, the parse and the parse with the walk in a fresh process', async () => {
    const figure = await measureSanitiserCostApart(0.3);
    expect(figure.forms).toBeGreaterThan(0);
    for (const micros of [
      figure.microsPerForm,
      figure.parseMicros,
      figure.parseAndWalkMicros,
      figure.mainThreadMicrosPerForm,
    ]) {
      expect(Number.isFinite(micros)).toBe(true);
      expect(micros).toBeGreaterThan(0);
    }
    const parts = sanitiserParts(figure);
    expect(parts.map((part) => part.part)).toEqual([
      expect.stringMatching(/^jsdom's parse/),
      expect.stringMatching(/^DOMPurify's walk/),
      expect.stringMatching(/^the rest/),
    ]);
    expect(parts.reduce((sum, part) => sum + part.micros, 0)).toBeCloseTo(figure.microsPerForm, 6);
    expect(figure.mainThreadMicrosPerForm).toBeLessThanOrEqual(figure.microsPerForm);
    expect(figure.mainThreadShare).toBeGreaterThan(0);
    expect(figure.mainThreadShare).toBeLessThanOrEqual(1.05);
    expect(sanitiserTarget(figure).met).toBe(figure.microsPerForm <= 300);
  });

  it('prints the parts, their sum (the measured figure) and the target', () => {
    const figure = {
      forms: 1000,
      microsPerForm: 250,
      parseMicros: 100,
      parseAndWalkMicros: 230,
      mainThreadMicrosPerForm: 200,
      mainThreadShare: 0.97,
    };
    const table = jest.spyOn(console, 'table').mockImplementation(() => undefined);
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      printSanitiserSplit(figure);
      const rows = table.mock.calls[0]![0] as { part: string; 'CPU µs': string }[];
      expect(rows.map((row) => row['CPU µs'])).toEqual(['100.0', '130.0', '20.0', '250.0', '300.0', '50.0']);
      expect(rows[3]!.part).toMatch(/sanitizeSubmission/);
      expect(log.mock.calls[0]![0]).toMatch(/each part measured apart in this run/);
      expect(log.mock.calls[1]![0]).toMatch(/main thread ran 97 %/);
    } finally {
      table.mockRestore();
      log.mockRestore();
    }
  });
});
