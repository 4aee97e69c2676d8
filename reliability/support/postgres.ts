// The reliability runs need a PostgreSQL server: TEST_DATABASE_URL names it, and each run makes its
// own scratch database there. Without it they report themselves skipped with the reason, except
// under CI=true, where a missing server is a broken pipeline and fails.
import { describe, it } from '@jest/globals';

export const postgresServerUrl: string | undefined = process.env.TEST_DATABASE_URL;

export function describeOnPostgres(title: string, body: (serverUrl: string) => void): void {
  if (postgresServerUrl) {
    describe(title, () => body(postgresServerUrl));
  } else if (process.env.CI === 'true') {
    describe(title, () => {
      it('has a PostgreSQL server to run against (CI=true)', () => {
        throw new Error('CI=true but TEST_DATABASE_URL is unset');
      });
    });
  } else {
    describe.skip(`${title} (skipped: TEST_DATABASE_URL is unset)`, () => body('postgres://unset'));
  }
}
