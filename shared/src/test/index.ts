// `@intake/shared/test`: test-only helpers for every workspace's tests. Source only (the "@intake/source"
// export condition of jest and the tests' type check): never built, not in the image.
export * from './config.js';
export * from './database.js';
export * from './services.js';
export * from './factories.js';
export * from './s3.js';
export * from './delivery.js';
export * from './delivery-cases.js';
export * from './processes.js';
export * from './module-list.js';
export * from './graphql.js';
export * from './outage-database.js';
export * from './real-part.js';
export * from './redis.js';
export * from './raw-request.js';
export * from './audit-signing.js';
export * from './chromium.js';
export * from './audit-export.js';
export { CHEAP_PASSWORD_HASH_PARAMS } from './cheap-password-hashes.js';
export * from './chat-schemas.js';
export * from './search-index.js';
export * from './audit-tables.js';
