import type { Readable } from 'node:stream';
import type { AppError } from '../errors/index.js';

/** One object as a listing reports it. */
export interface StoredObject {
  key: string;
  lastModified: Date;
}

// Where the bytes of stored files live. Keys are random and made by the storage, never derived from
// anything a client sent. Both drivers (local disk and S3) pass the same test suite.
export interface Storage {
  /**
   * Stores the bytes of a local file under a new random key; returns the key. With `move`, the caller
   * gives the file up, and it is gone once the call resolves: local storage renames it into place
   * when both are on one filesystem, and otherwise (and S3 always) removes it after storing a copy
   * (best effort: a source that cannot be removed is left to the orphan sweep). Without `move`, the
   * source stays the caller's. With `syncLater`, where the backend has `makeDurable` (local disk), the
   * object is in place but not yet durable: the caller must make it so (`makeDurable`) before it
   * refers to the key from anything durable (a committed row). A crash before that may leave it
   * partial, with nothing referring to it: the orphan sweep removes it.
   */
  putFile(sourcePath: string, options?: { move?: boolean; syncLater?: boolean }): Promise<string>;
  /**
   * Makes objects put with `syncLater` durable, all at once (docs/performance.md, "Durable files in
   * groups"): one answer per key, in order, undefined once that key's object is on disk, the error
   * (service_unavailable) otherwise; it never throws. Absent where a put is durable when it resolves
   * (S3).
   */
  makeDurable?(keys: readonly string[]): Promise<readonly (AppError | undefined)[]>;
  /** A stream of the object's bytes, or undefined when there is no such object. */
  get(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** Removes an object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** True when the storage can be written (readiness). */
  ping(): Promise<boolean>;
  /** Every stored object (only keys of Intake's shape), for the orphan sweep. */
  list(): AsyncIterable<StoredObject>;
  /**
   * Removes half-written leftovers of a crashed putFile started before `olderThan`; returns how many.
   * Absent where the backend cleans up itself (S3: an AbortIncompleteMultipartUpload lifecycle rule).
   */
  removeStaleTemporaries?(olderThan: Date): Promise<number>;
}
