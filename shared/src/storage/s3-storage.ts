import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type { S3StorageConfig } from '../config/types.js';
import { AppError } from '../errors/index.js';
import { assertStorageKey, isStorageKey, newStorageKey } from './storage-key.js';
import { removeSource } from './remove-source.js';
import type { Storage, StoredObject } from './storage.js';

// An unreachable endpoint must fail a request within seconds, never hang it: a short connection
// timeout, one retry, and an idle-socket limit (not a total one, so large objects still stream).
const CONNECTION_TIMEOUT_MS = 3_000;
const SOCKET_IDLE_TIMEOUT_MS = 10_000;
const MAX_ATTEMPTS = 2;
// lib-storage reads the file in parts of this size (the S3 minimum) with at most two in flight,
// so an upload holds about 10 MiB in memory whatever the file's size.
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

// The SDK is loaded when S3 storage is made, not when this module is: it is over 20 MB of an idle
// gateway's memory that a deployment on local storage never uses. Both packages ship CommonJS.
const require = createRequire(import.meta.url);
let loaded: typeof ClientS3 | undefined;

function sdk(): typeof ClientS3 {
  loaded ??= require('@aws-sdk/client-s3') as typeof ClientS3;
  return loaded;
}

function unavailable(error: unknown): AppError {
  return new AppError('service_unavailable', 'File storage is unavailable.', { retryAfter: 5, cause: error });
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof sdk().S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

export function createS3Client(config: Omit<S3StorageConfig, 'driver' | 'bucket'>): S3Client {
  return new (sdk().S3Client)({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    maxAttempts: MAX_ATTEMPTS,
    requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, socketTimeout: SOCKET_IDLE_TIMEOUT_MS },
    // Many S3-compatible servers reject the SDK's default trailing checksums; AWS itself keeps them.
    ...(config.endpoint
      ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
  });
}

/**
 * S3 (or S3-compatible) storage with the local driver's contract: random `ab/<40 hex>` keys, bytes
 * streamed both ways, and S3 outages reported as 503 service_unavailable. An upload either completes
 * or leaves no object (lib-storage aborts a failed multipart upload).
 */
export function createS3Storage(config: S3StorageConfig, client: S3Client = createS3Client(config)): Storage {
  const { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, paginateListObjectsV2 } = sdk();
  const { Upload } = require('@aws-sdk/lib-storage') as typeof LibStorage;
  const Bucket = config.bucket;

  return {
    async putFile(sourcePath, options = {}) {
      const Key = newStorageKey();
      const Body = createReadStream(sourcePath);
      try {
        await new Upload({ client, params: { Bucket, Key, Body }, partSize: PART_SIZE, queueSize: QUEUE_SIZE }).done();
      } catch (error) {
        throw unavailable(error);
      } finally {
        Body.destroy();
      }
      if (options.move === true) {
        await removeSource(sourcePath);
      }
      return Key;
    },
    async get(key) {
      assertStorageKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return { stream: object.Body as Readable, size: object.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) {
          return undefined;
        }
        throw unavailable(error);
      }
    },
    async delete(key) {
      assertStorageKey(key);
      try {
        // S3 answers 204 for a missing key too.
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (error) {
        throw unavailable(error);
      }
    },
    async ping() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
        return true;
      } catch {
        return false;
      }
    },
    async *list(): AsyncGenerator<StoredObject> {
      try {
        for await (const page of paginateListObjectsV2({ client }, { Bucket })) {
          for (const object of page.Contents ?? []) {
            if (object.Key && object.LastModified && isStorageKey(object.Key)) {
              yield { key: object.Key, lastModified: object.LastModified };
            }
          }
        }
      } catch (error) {
        throw unavailable(error);
      }
    },
  };
}
