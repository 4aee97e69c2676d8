export * from './utc-days.js';
export * from './refusal-counts.js';
export * from './submission-counts.js';
