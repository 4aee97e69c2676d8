// The HTTP pieces both services use: listening with a graceful close, request ids, the access log,
// request metrics and readiness.
export * from './listen.js';
export * from './access-log.js';
export * from './observe-requests.js';
export * from './readiness.js';
export * from './request-id.js';
