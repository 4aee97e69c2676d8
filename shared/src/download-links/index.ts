export * from './derive-key.js';
export * from './download-links.js';
