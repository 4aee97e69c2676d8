// Signed receipts (docs/receipts.md): what the gateway signs for every accepted submission, and the
// check the admin API runs against the stored submission.
export * from './claims.js';
export * from './receipt.js';
