// One rule for every suite that needs a real part (PostgreSQL, Redis, clamd, Chromium, an old
// Node.js): where the part is here the suite runs; where it is not, the suite is reported skipped
// with the reason, except under CI=true, where CI provides every part, so a missing one is a broken
// pipeline and the suite fails with the reason instead.
import { describe, it } from '@jest/globals';

/** A real part a suite needs: found (with what the suite uses of it), or missing with the reason. */
export type RealPart<T> =
  | { available: true; value: T }
  /** `placeholder` only lets a skipped suite's body be collected, so the report lists its tests. */
  | { available: false; reason: string; placeholder: T };

/** `describe` when the part is available; otherwise skipped with the reason, or failing under CI=true. */
export function describeWithRealPart<T>(title: string, part: RealPart<T>, body: (value: T) => void): void {
  if (part.available) {
    describe(title, () => body(part.value));
  } else if (process.env.CI === 'true') {
    describe(title, () => {
      it('has every real part it needs (CI=true)', () => {
        throw new Error(`CI=true but ${part.reason}`);
      });
    });
  } else {
    describe.skip(`${title} (skipped: ${part.reason})`, () => body(part.placeholder));
  }
}

/**
 * Suites that only make sense on a PostgreSQL server (several processes on one database, killed
 * connections, outages), given TEST_DATABASE_URL. `.ci/run` runs `npm test` twice: its embedded-PGlite
 * pass sets INTAKE_TEST_PASS=pglite, and there these suites are skipped because the same run's
 * PostgreSQL pass runs them; anywhere else a missing server follows the rule above.
 */
export function describeOnPostgres(title: string, body: (serverUrl: string) => void): void {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const placeholder = 'postgres://unset';
  if (!serverUrl && process.env.INTAKE_TEST_PASS === 'pglite') {
    describe.skip(`${title} (PostgreSQL only: runs in the PostgreSQL pass)`, () => body(placeholder));
    return;
  }
  describeWithRealPart(
    title,
    serverUrl
      ? { available: true, value: serverUrl }
      : { available: false, reason: 'TEST_DATABASE_URL is unset', placeholder },
    body,
  );
}
