// The upload's single pass: every byte of an upload is hashed, counted and run through the checks
// that must see all of it while it streams to its temporary file, so that no check reads a big
// file back afterwards (docs/performance.md#uploads-in-one-pass). The type stage then reads only the
// file's head (its magic bytes) and its last 80 KiB (where a ZIP reader looks for an appended zip).
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { AppendedArchiveWatch } from './appended-archive.js';
import { TextWatch } from './text.js';
import type { StreamedChecks } from './types.js';

export interface StreamedResults {
  size: number;
  /** Hex sha256 of the bytes. */
  sha256: string;
  streamed: StreamedChecks;
}

/** The hash, the count and the whole-file checks, fed chunk by chunk. */
export class StreamedChecker {
  private readonly hash = createHash('sha256');
  private readonly appended = new AppendedArchiveWatch();
  private readonly text = new TextWatch();
  private bytes = 0;

  update(chunk: Buffer): void {
    this.hash.update(chunk);
    this.appended.update(chunk);
    this.text.update(chunk);
    this.bytes += chunk.length;
  }

  /** Once the last chunk is in. */
  results(): StreamedResults {
    const { signature, zipAfterEnd } = this.appended.scan();
    return {
      size: this.bytes,
      sha256: this.hash.digest('hex'),
      streamed: { archiveSignature: signature, zipAfterEnd, text: this.text.verdict() },
    };
  }
}

/** A pass-through stage of the upload's pipe to its temporary file that feeds a StreamedChecker. */
export class StreamedCheckPass extends Transform {
  private readonly checker = new StreamedChecker();

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.checker.update(chunk);
    callback(null, chunk);
  }

  /** Once the stream has ended. */
  results(): StreamedResults {
    return this.checker.results();
  }
}
