// What the services share about deliveries: the outbox that enqueues them with a submission, the
// event they carry, the webhook secrets and the SSRF guard the admin API checks URLs with. The
// worker that sends them is its own workspace (worker/).
export * from './confirmation.js';
export * from './event.js';
export * from './invitation.js';
export * from './outbox.js';
export * from './password-reset.js';
export * from './ssrf-guard.js';
export * from './webhook-secret.js';
