export * from './bootstrap.js';
export * from './run.js';
export * from './settle-heap.js';
