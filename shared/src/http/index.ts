// The HTTP pieces both services use: listening with a graceful close, request ids, the access log,
// request metrics, readiness and the published signing keys.
export * from './jwks.js';
export * from './listen.js';
export * from './access-log.js';
export * from './observe-requests.js';
export * from './readiness.js';
export * from './request-id.js';
