// Test-only helpers shared by every workspace's tests (not part of the built package).
export * from './config.js';
export * from './database.js';
export * from './services.js';
export * from './factories.js';
export * from './s3.js';
export * from './delivery.js';
export * from './processes.js';
export * from './graphql.js';
export * from './outage-database.js';
