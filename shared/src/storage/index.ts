import path from 'node:path';
import type { Config } from '../config/types.js';
import { createLocalStorage } from './local-storage.js';
import { createS3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

export * from './local-storage.js';
export * from './orphan-sweep.js';
export * from './s3-storage.js';
export * from './storage-key.js';
export type * from './storage.js';

export function createStorage(config: Pick<Config, 'dataDir' | 'storage'>): Storage {
  if (config.storage.driver === 's3') {
    return createS3Storage(config.storage);
  }
  return createLocalStorage(path.join(config.dataDir, 'files'));
}
