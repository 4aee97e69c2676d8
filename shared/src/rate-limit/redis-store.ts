import type { Logger } from '../logger/index.js';
import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';
import type { Redis } from 'ioredis';

// Loaded only when REDIS_URL is set: a process counting in memory never needs the client (idle memory).
const require = createRequire(import.meta.url);

export interface RedisStore {
  client: Redis;
  /** True while the connection is ready; otherwise the limiters count in this process's memory. */
  available(): boolean;
  /** Settles after the first connection attempt (success or failure), bounded by the connect timeout. */
  firstAttempt: Promise<void>;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 1_000;
const COMMAND_TIMEOUT_MS = 500;

/**
 * An ioredis client that fails fast: no offline queue, one retry, short connect and command
 * timeouts, so a request never waits on a Redis that is down. It keeps reconnecting in the
 * background; the outage and the recovery are each logged once.
 */
export function connectRedisStore(url: string, logger: Logger, label = 'rate limits'): RedisStore {
  const { Redis: RedisClient } = require('ioredis') as typeof IoRedis;
  const client = new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    // A closed client lingers no longer than this (ioredis' 2 s default delays shutdown).
    disconnectTimeout: 200,
  });
  let ready = false;
  let fallbackLogged = false;
  let closing = false;

  const markDown = (reason: string) => {
    ready = false;
    if (!fallbackLogged && !closing) {
      fallbackLogged = true;
      logger.warn({ reason }, `${label}: redis unavailable, counting in this process only`);
    }
  };
  client.on('ready', () => {
    ready = true;
    if (fallbackLogged) {
      fallbackLogged = false;
      logger.info(`${label}: redis is back, counting in redis again`);
    }
  });
  // The message names the host and port at most (never the URL's password).
  client.on('error', (error: NodeJS.ErrnoException) => markDown(error.code ?? error.message));
  client.on('close', () => markDown('connection closed'));

  const firstAttempt = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CONNECT_TIMEOUT_MS * 2);
    timer.unref();
    const settle = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', settle);
    client.once('error', settle);
  });

  return {
    client,
    available: () => ready,
    firstAttempt,
    close: async () => {
      closing = true;
      if (ready) {
        await client.quit().catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };
}
