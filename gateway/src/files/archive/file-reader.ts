// Random access to an uploaded ZIP for yauzl, through a small block cache. yauzl reads the central
// directory and every local header with one tiny read each; straight on the file that is two
// system calls per header, seconds for a 10,000-entry archive. Reading 64 KiB blocks makes the
// metadata passes nearly free, while entry data still streams from the file.
import { close, fstat, open, read } from 'node:fs';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import yauzl from 'yauzl';

const BLOCK_BYTES = 64 * 1024;

const openAsync = promisify(open);
const fstatAsync = promisify(fstat);

interface Block {
  start: number;
  bytes: Buffer;
}

/**
 * Streams `[start, end)` of an open file without owning it (fs.ReadStream closes its fd when
 * destroyed, even with autoClose off, and yauzl destroys streams it is done with).
 */
class RangeStream extends Readable {
  private position: number;

  constructor(
    private readonly fd: number,
    start: number,
    private readonly end: number,
  ) {
    super();
    this.position = start;
  }

  override _read(): void {
    const length = Math.min(BLOCK_BYTES, this.end - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const chunk = Buffer.alloc(length);
    read(this.fd, chunk, 0, length, this.position, (error, bytesRead) => {
      if (error !== null) {
        this.destroy(error);
      } else if (bytesRead === 0) {
        this.push(null); // the file ends early: yauzl reports the short read
      } else {
        this.position += bytesRead;
        this.push(chunk.subarray(0, bytesRead));
      }
    });
  }
}

export class CachedFileReader extends yauzl.RandomAccessReader {
  readonly size: number;
  private readonly fd: number;
  /** The two most recent blocks: the directory cursor and the local header or data being read. */
  private blocks: Block[] = [];

  private constructor(fd: number, size: number) {
    super();
    this.fd = fd;
    this.size = size;
  }

  static async open(path: string): Promise<CachedFileReader> {
    const fd = await openAsync(path, 'r');
    try {
      const { size } = await fstatAsync(fd);
      return new CachedFileReader(fd, size);
    } catch (error) {
      close(fd, () => undefined);
      throw error;
    }
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null, bytesRead?: number) => void,
  ): void {
    if (length > BLOCK_BYTES) {
      read(this.fd, buffer, offset, length, position, (error, bytesRead) => callback(error, bytesRead));
      return;
    }
    this.block(position, length, (error, block) => {
      if (error !== null || block === undefined) {
        callback(error ?? new Error('read failed'));
        return;
      }
      const copied = block.bytes.copy(buffer, offset, position - block.start, position - block.start + length);
      callback(null, copied);
    });
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (end - start > BLOCK_BYTES) {
      return new RangeStream(this.fd, start, end);
    }
    // Small entries come out of the cache like the headers around them.
    const stream = new Readable({ read: () => undefined });
    const chunk = Buffer.alloc(end - start);
    this.read(chunk, 0, chunk.length, start, (error, bytesRead) => {
      if (error !== null) {
        stream.destroy(error);
        return;
      }
      stream.push(chunk.subarray(0, bytesRead ?? 0));
      stream.push(null);
    });
    return stream;
  }

  override close(callback: (err: Error | null) => void): void {
    close(this.fd, (error) => callback(error));
  }

  private block(position: number, length: number, callback: (error: Error | null, block?: Block) => void): void {
    const cached = this.blocks.find(
      (block) => position >= block.start && position + length <= block.start + block.bytes.length,
    );
    if (cached !== undefined) {
      callback(null, cached);
      return;
    }
    const bytes = Buffer.alloc(Math.min(BLOCK_BYTES, Math.max(0, this.size - position)));
    read(this.fd, bytes, 0, bytes.length, position, (error, bytesRead) => {
      if (error !== null) {
        callback(error);
        return;
      }
      const block = { start: position, bytes: bytes.subarray(0, bytesRead) };
      this.blocks = [block, ...this.blocks].slice(0, 2);
      callback(null, block);
    });
  }
}
