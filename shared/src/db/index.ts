export * from './orm.js';
export * from './change-feed.js';
export { keepWasmOnBaselineCompiler } from './pglite-memory.js';
export { executePrepared, type PreparedStatement } from './prepared-statement.js';
