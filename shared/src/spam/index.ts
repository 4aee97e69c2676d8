export * from './captcha-secret.js';
export * from './spam-retention.js';
export * from './captcha-defaults.js';
