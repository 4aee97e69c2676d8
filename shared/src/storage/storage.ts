import type { Readable } from 'node:stream';

// Where the bytes of stored files live. Keys are random and made by the storage, never derived from
// anything a client sent. Both drivers (local disk now, S3 later) pass the same test suite.
export interface Storage {
  /** Stores the bytes of a local file under a new random key; returns the key. */
  putFile(sourcePath: string): Promise<string>;
  /** A stream of the object's bytes, or undefined when there is no such object. */
  get(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** Removes an object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** True when the storage can be written (readiness). */
  ping(): Promise<boolean>;
}
