// The worker as a library: `npm start` runs the delivery loop, the retention schedule and the search
// indexer beside the two services in one process; `main.ts` runs them alone (`npm run start:worker`).
export { createDeliveryWorker, DEFAULT_DISABLE_AFTER_MS } from './delivery-worker.js';
export type { DeliveryWorker, DeliveryWorkerOptions } from './delivery-worker.js';
export { createRetentionSchedule, RETENTION_INTERVAL_MS } from './retention/retention-schedule.js';
export type { RetentionSchedule, RetentionScheduleOptions } from './retention/retention-schedule.js';
export { createSearchIndexer, SEARCH_POLL_MS } from './search/search-indexer.js';
export type { SearchIndexer, SearchIndexerOptions } from './search/search-indexer.js';
