export * from './delete-submissions.js';
export * from './erasure.js';
export * from './erasure-match.js';
export * from './retention-period.js';
