// The worker as a library: `npm start` runs the delivery loop and the retention schedule beside the
// two services in one process; `main.ts` runs them alone (`npm run start:worker`).
export { createDeliveryWorker, DEFAULT_DISABLE_AFTER_MS } from './delivery-worker.js';
export type { DeliveryWorker, DeliveryWorkerOptions } from './delivery-worker.js';
export { createRetentionSchedule, RETENTION_INTERVAL_MS } from './retention/retention-schedule.js';
export type { RetentionSchedule, RetentionScheduleOptions } from './retention/retention-schedule.js';
