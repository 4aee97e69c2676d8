export * from './bootstrap.js';
export * from './run.js';
