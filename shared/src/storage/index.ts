import path from 'node:path';
import type { Config } from '../config/types.js';
import { createLocalStorage } from './local-storage.js';
import type { Storage } from './storage.js';

export * from './local-storage.js';
export type * from './storage.js';

export function createStorage(config: Pick<Config, 'dataDir' | 'storage'>): Storage {
  return createLocalStorage(path.join(config.dataDir, 'files'));
}
