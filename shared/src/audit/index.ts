export * from './record.js';
export * from './audit-chain.js';
export * from './chain-key.js';
export * from './chain.js';
export * from './chain-head.js';
export * from './checkpoint-signing.js';
export * from './checkpoints.js';
export * from './verify.js';
