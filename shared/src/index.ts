export * from './auth/password.js';
export * from './config/index.js';
export * from './db/orm.js';
export * from './entities/index.js';
export * from './errors.js';
export * from './logger.js';
export * from './secrets.js';
export * from './storage/index.js';
