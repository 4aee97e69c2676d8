export * from './env-file.js';
export * from './load-config.js';
export type * from './types.js';
