import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';
import type { Storage } from './storage.js';

const KEY_PATTERN = /^[a-f0-9]{2}\/[a-f0-9]{40}$/;

/**
 * Local-disk storage under one root (DATA_DIR/files). A key is `ab/<40 hex>`: random, fanned out
 * over 256 folders. Keys are checked against that pattern before any path is built, so no
 * user-controlled text can reach the file system. Writes go to a temporary name, are fsynced and
 * renamed, so an object is either whole or absent.
 */
export function createLocalStorage(root: string): Storage {
  const absoluteRoot = path.resolve(root);

  function pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) {
      throw new Error('invalid storage key');
    }
    return path.join(absoluteRoot, key);
  }

  async function fsyncFile(file: string): Promise<void> {
    const handle = await open(file, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  return {
    async putFile(sourcePath) {
      const key = `${randomBytes(1).toString('hex')}/${randomBytes(20).toString('hex')}`;
      const target = pathOf(key);
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await mkdir(path.dirname(target), { recursive: true });
        await copyFile(sourcePath, temporary);
        await fsyncFile(temporary);
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw new AppError('service_unavailable', 'File storage is unavailable.', { retryAfter: 5, cause: error });
      }
      return key;
    },
    async get(key) {
      const file = pathOf(key);
      try {
        const { size } = await stat(file);
        return { stream: createReadStream(file), size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return undefined;
        }
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async ping() {
      try {
        await mkdir(absoluteRoot, { recursive: true });
        await access(absoluteRoot, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}
