export * from './public-urls.js';
export * from './exposure-warnings.js';
