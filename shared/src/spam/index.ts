export * from './captcha-secret.js';
export * from './captcha-defaults.js';
