export * from './rate-limiter.js';
export * from './redis-store.js';
