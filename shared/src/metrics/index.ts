export * from './database-pool.js';
export * from './endpoint.js';
export * from './process-metrics.js';
export * from './service-metrics.js';
export * from './request-duration.js';
