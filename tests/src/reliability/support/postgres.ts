// The reliability runs need a PostgreSQL server: TEST_DATABASE_URL names it, and each run makes its
// own scratch database there. The rule for a missing server is the tests' one (see real-part.ts).
export { describeOnPostgres } from '@intake/shared/test';
