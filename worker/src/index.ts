// The delivery worker as a library: `npm start` runs it beside the two services in one process;
// `main.ts` runs it alone (`npm run start:worker`).
export { createDeliveryWorker, DEFAULT_DISABLE_AFTER_MS } from './worker.js';
export type { DeliveryWorker, DeliveryWorkerOptions } from './worker.js';
