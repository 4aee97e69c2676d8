export * from './orm.js';
export * from './change-feed.js';
export { EmbeddedDatabaseInUseError, lockFileOf } from './embedded-database-lock.js';
export { keepWasmOnBaselineCompiler } from './pglite-memory.js';
export { executePrepared, preparedStatement, queryPrepared, type PreparedStatement } from './prepared-statement.js';
