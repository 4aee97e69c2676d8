// 7z samples made at test time with 7z-wasm itself (no native 7-Zip needed), entirely in its memory
// file system, plus the hand edits 7-Zip refuses to make: entry names such as `../evil` are written
// over a placeholder of the same length in an uncompressed header, whose CRCs are then fixed.
import { crc32 } from 'node:zlib';
import sevenZipPackage from '7z-wasm';
import type { SevenZipModule } from '7z-wasm';

export interface SampleEntry {
  /** Relative path inside the archive (folders are created as needed). */
  name: string;
  data?: string | Uint8Array;
  /** Makes a symbolic link to this target instead of a file (stored as a link with -snl). */
  symlinkTarget?: string;
}

export interface SevenZipSampleOptions {
  /** 7-Zip's format switch: `7z` (default), `zip`, `tar`. */
  format?: string;
  password?: string;
  /** Encrypts the header too (`-mhe=on`): even the names are hidden. */
  encryptHeaders?: boolean;
  /** `-mx` level; 0 stores. */
  level?: number;
  /** Leaves the header uncompressed (`-mhc=off`) so `renameEntry` can edit it. */
  plainHeader?: boolean;
  solid?: boolean;
}

let instance: Promise<SevenZipModule> | undefined;

function sevenZip(): Promise<SevenZipModule> {
  instance ??= sevenZipPackage.default({ print: () => undefined, printErr: () => undefined });
  return instance;
}

function removeTree(fs: SevenZipModule['FS'], path: string): void {
  if (fs.isDir(fs.lstat(path).mode)) {
    for (const name of fs.readdir(path)) {
      if (name !== '.' && name !== '..') {
        removeTree(fs, `${path}/${name}`);
      }
    }
    fs.rmdir(path);
  } else {
    fs.unlink(path);
  }
}

function mkdirs(fs: SevenZipModule['FS'], path: string): void {
  let current = '';
  for (const segment of path.split('/').filter(Boolean)) {
    current += `/${segment}`;
    try {
      fs.mkdir(current);
    } catch {
      // Already there.
    }
  }
}

let counter = 0;

/** Builds an archive of `entries` with 7z-wasm, in memory. */
export async function sevenZipOf(
  entries: readonly SampleEntry[],
  options: SevenZipSampleOptions = {},
): Promise<Buffer> {
  const module = await sevenZip();
  const fs = module.FS;
  counter += 1;
  const root = `/samples-${counter}`;
  const source = `${root}/src`;
  const archive = `${root}/out.${options.format ?? '7z'}`;
  mkdirs(fs, source);
  for (const entry of entries) {
    const path = `${source}/${entry.name}`;
    mkdirs(fs, path.slice(0, path.lastIndexOf('/')));
    if (entry.symlinkTarget !== undefined) {
      fs.symlink(entry.symlinkTarget, path);
    } else {
      fs.writeFile(path, typeof entry.data === 'string' ? entry.data : (entry.data ?? new Uint8Array()));
    }
  }
  const args = ['a', `-t${options.format ?? '7z'}`, '-bso0', '-bsp0', '-snl'];
  if (options.level !== undefined) {
    args.push(`-mx=${options.level}`);
  }
  if (options.password !== undefined) {
    args.push(`-p${options.password}`);
  }
  if (options.encryptHeaders) {
    args.push('-mhe=on');
  }
  if (options.plainHeader) {
    args.push('-mhc=off');
  }
  if (options.solid !== undefined && (options.format ?? '7z') === '7z') {
    args.push(`-ms=${options.solid ? 'on' : 'off'}`);
  }
  fs.chdir(source);
  try {
    const code = (module.callMain as unknown as (args: string[]) => number | undefined)([
      ...args,
      archive,
      ...new Set(entries.map((entry) => entry.name.split('/')[0] ?? entry.name)),
    ]);
    if (code !== 0 && code !== undefined) {
      throw new Error(`7z a exited with ${code}`);
    }
    return Buffer.from(fs.readFile(archive));
  } finally {
    fs.chdir('/');
    removeTree(fs, root);
  }
}

const START_HEADER_SIZE = 32;

/**
 * Rewrites an entry name in a 7z archive built with `plainHeader`: `from` and `to` must have the
 * same length (UTF-16 code units). Fixes the next-header and start-header CRCs.
 */
export function renameEntry(archive: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) {
    throw new Error('renameEntry needs names of the same length');
  }
  const result = Buffer.from(archive);
  const nextOffset = Number(result.readBigUInt64LE(12));
  const nextSize = Number(result.readBigUInt64LE(20));
  const headerStart = START_HEADER_SIZE + nextOffset;
  const header = result.subarray(headerStart, headerStart + nextSize);
  const needle = Buffer.from(`${from}\0`, 'utf16le');
  const at = header.indexOf(needle);
  if (at < 0 || header[0] !== 0x01) {
    throw new Error('name not found in a plain 7z header');
  }
  Buffer.from(`${to}\0`, 'utf16le').copy(header, at);
  result.writeUInt32LE(crc32(header), 28);
  result.writeUInt32LE(crc32(result.subarray(12, 32)), 8);
  return result;
}
