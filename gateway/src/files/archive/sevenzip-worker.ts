// The 7-Zip worker: runs 7z-wasm on archives held in its in-memory file system (emscripten MEMFS),
// never on the real disk, and answers with raw listings and the first bytes of each file. It makes
// no decision: the gateway parses and judges. Node loads this file itself (compiled .js, or .ts
// through Node's type stripping under the tests), so at run time it imports only 7z-wasm and Node.
import { parentPort, workerData } from 'node:worker_threads';
import sevenZipPackage from '7z-wasm';
import type { FSStream, SevenZipModuleOptions } from '7z-wasm';
import type {
  ExtractRequest,
  ExtractResponse,
  ListRequest,
  ListResponse,
  ReadyMessage,
  SevenZipRequest,
  SevenZipResponse,
  SevenZipWorkerData,
} from './sevenzip-protocol.js';

const ROOT = '/intake';
const MAX_ERROR_LINES = 50;
// emscripten's errno for "no space left on device": 7-Zip gives up the extraction (in this build
// by an uncaught exception, which retires the worker); `overBudget` tells the gateway why.
const ENOSPC = 51;
const O_ACCMODE = 3;

type Write = (
  stream: FSStream,
  buffer: Uint8Array,
  offset: number,
  length: number,
  position: number,
  canOwn?: boolean,
) => number;

interface CapturedFile {
  path: string;
  size: number;
  head: Uint8Array;
  keptAt?: string;
}

interface Capture {
  outDir: string;
  request: ExtractRequest;
  keep: Set<string>;
  files: Map<string, CapturedFile>;
  totalBytes: number;
  overBudget: boolean;
}

/** A response before the worker adds its heap size. */
type Draft<T> = T extends unknown ? Omit<T, 'heapBytes'> : never;

interface Output {
  lines: string[];
  errorLines: string[];
  keepLine: (line: string) => boolean;
}

// 7-Zip's output holds entry names (submitted values): it goes to the callbacks below and nowhere
// else, and whatever else might print here stays out of the gateway's logs. (Not `stdout: true`
// on the Worker: its stdio port would keep the process alive while the worker idles.)
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  console[method] = () => undefined;
}

const data = workerData as SevenZipWorkerData;
const output: Output = { lines: [], errorLines: [], keepLine: () => true };
let memory: WebAssembly.Memory | undefined;
let capture: Capture | undefined;
// Kept after the extraction ends, so a failure can still say whether the budget was the cause.
let lastCapture: Capture | undefined;
let counter = 0;

const options: Partial<SevenZipModuleOptions> & { instantiateWasm: unknown } = {
  print: (line: string) => {
    if (output.keepLine(line)) {
      output.lines.push(line);
    }
  },
  printErr: (line: string) => {
    if (output.errorLines.length < MAX_ERROR_LINES) {
      output.errorLines.push(line);
    }
  },
  // No password is ever given: 7-Zip asks for one on stdin, reads end of file and gives up. (A
  // dummy password would make it run the key derivation, up to 2^24 SHA-256 rounds of the
  // attacker's choosing, before failing.)
  stdin: () => null as unknown as number,
  // emscripten's hook: instantiate the shared compiled module ourselves, with heap growth capped.
  instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => {
    const env = imports['env'] as Record<string, unknown>;
    const resize = env['emscripten_resize_heap'] as (requested: number) => boolean;
    env['emscripten_resize_heap'] = (requested: number) =>
      requested >>> 0 > data.maxWasmHeapBytes ? false : resize(requested);
    void WebAssembly.instantiate(data.wasmModule, imports).then((instance) => {
      memory = instance.exports['memory'] as WebAssembly.Memory;
      done(instance);
    });
    return {};
  },
};
// 7z-wasm is CommonJS: Node's default import is `module.exports`, which also carries `.default`
// (the form its typings describe).
const sevenZip = await sevenZipPackage.default(options);
const fs = sevenZip.FS;
const ErrnoError = (fs as unknown as { ErrnoError: new (errno: number) => Error }).ErrnoError;
const callMain = sevenZip.callMain as unknown as (args: string[]) => number | undefined;

function nextPath(prefix: string): string {
  counter += 1;
  return `${ROOT}/${prefix}-${counter}`;
}

// Every file 7-Zip opens for writing under the extraction folder gets a write that counts bytes
// and keeps the first ones (and everything, for files named in `keep`) instead of storing them.
const open = fs.open.bind(fs);
fs.open = (path: string, flags: string, mode?: number) => {
  const stream = open(path, flags, mode);
  const current = capture;
  const accessMode = (stream as unknown as { flags: number }).flags & O_ACCMODE;
  if (current !== undefined && accessMode !== 0 && path.startsWith(`${current.outDir}/`)) {
    hookWrites(current, stream, path.slice(current.outDir.length + 1));
  }
  return stream;
};

function hookWrites(current: Capture, stream: FSStream, relative: string): void {
  const target = stream as unknown as { stream_ops: { write: Write } };
  const ops = target.stream_ops;
  const keep = current.keep.has(relative);
  const headBytes = current.request.headBytes;
  const head = new Uint8Array(headBytes);
  const file: CapturedFile = { path: relative, size: 0, head: head.subarray(0, 0) };
  if (keep) {
    file.keptAt = `${current.outDir}/${relative}`;
  }
  current.files.set(relative, file);
  const write: Write = (s, buffer, offset, length, position, canOwn) => {
    if (current.totalBytes + length > current.request.maxTotalBytes) {
      current.overBudget = true;
      throw new ErrnoError(ENOSPC);
    }
    current.totalBytes += length;
    if (position < headBytes) {
      head.set(buffer.subarray(offset, offset + Math.min(length, headBytes - position)), position);
    }
    file.size = Math.max(file.size, position + length);
    file.head = head.subarray(0, Math.min(headBytes, file.size));
    return keep ? ops.write(s, buffer, offset, length, position, canOwn) : length;
  };
  target.stream_ops = { ...ops, write };
}

function removeTree(path: string): void {
  if (fs.isDir(fs.lstat(path).mode)) {
    for (const name of fs.readdir(path)) {
      if (name !== '.' && name !== '..') {
        removeTree(`${path}/${name}`);
      }
    }
    fs.rmdir(path);
  } else {
    fs.unlink(path);
  }
}

function exists(path: string): boolean {
  try {
    fs.lstat(path);
    return true;
  } catch {
    return false;
  }
}

function ensureRoot(): void {
  if (!exists(ROOT)) {
    fs.mkdir(ROOT);
  }
}

function run(args: string[], keepLine: (line: string) => boolean = () => true): number {
  output.lines = [];
  output.errorLines = [];
  output.keepLine = keepLine;
  // With noExitRuntime, callMain returns 7-Zip's exit code (0 ok, 1 warning, 2 fatal, 8 memory).
  const code = callMain(args);
  return typeof code === 'number' ? code : 2;
}

function list(request: ListRequest): Draft<ListResponse> {
  let entryCount = 0;
  let inEntries = false;
  const exitCode = run(['l', '-slt', '-bsp0', '-sccUTF-8', '--', request.file], (line) => {
    if (line === '----------') {
      inEntries = true;
    } else if (inEntries && line.startsWith('Path = ')) {
      entryCount += 1;
    }
    // Past the cap only the count goes on: a huge listing must not fill the worker's heap.
    return entryCount <= request.maxEntries;
  });
  return {
    op: 'list',
    id: request.id,
    exitCode,
    lines: output.lines,
    errorLines: output.errorLines,
    entryCount,
    truncated: entryCount > request.maxEntries,
  };
}

/** Files with content that did not go through the write hook (none, unless 7-Zip changes its ways). */
function countUncaptured(current: Capture, dir: string, prefix: string): number {
  let count = 0;
  for (const name of fs.readdir(dir)) {
    if (name === '.' || name === '..') {
      continue;
    }
    const path = `${dir}/${name}`;
    const relative = prefix === '' ? name : `${prefix}/${name}`;
    const stat = fs.lstat(path);
    if (fs.isDir(stat.mode)) {
      count += countUncaptured(current, path, relative);
    } else if (!current.files.has(relative) && stat.size > 0) {
      count += 1;
    }
  }
  return count;
}

function extract(request: ExtractRequest): Draft<ExtractResponse> {
  const outDir = nextPath('out');
  ensureRoot();
  fs.mkdir(outDir);
  const current: Capture = {
    outDir,
    request,
    keep: new Set(request.keep),
    files: new Map(),
    totalBytes: 0,
    overBudget: false,
  };
  capture = current;
  lastCapture = current;
  let exitCode: number;
  try {
    // No -snl: links would be written as plain files (the gateway refuses them before this anyway).
    // -aou renames duplicates, so two entries of the same name are both seen.
    exitCode = run(['x', '-bsp0', '-bso0', '-y', '-aou', `-o${outDir}`, '--', request.file]);
  } finally {
    capture = undefined;
  }
  return {
    op: 'extract',
    id: request.id,
    outDir,
    exitCode,
    errorLines: output.errorLines,
    files: [...current.files.values()].map((file) => ({ ...file, head: file.head.slice() })),
    totalBytes: current.totalBytes,
    overBudget: current.overBudget,
    uncaptured: countUncaptured(current, outDir, ''),
  };
}

function handle(request: SevenZipRequest): Draft<SevenZipResponse> {
  lastCapture = undefined;
  switch (request.op) {
    case 'load': {
      ensureRoot();
      const file = nextPath('in');
      fs.writeFile(file, request.bytes);
      return { op: 'load', id: request.id, file };
    }
    case 'list': {
      return list(request);
    }
    case 'extract': {
      return extract(request);
    }
    case 'read': {
      return { op: 'read', id: request.id, bytes: fs.readFile(request.file) };
    }
    case 'remove': {
      if (exists(request.file)) {
        removeTree(request.file);
      }
      return { op: 'remove', id: request.id };
    }
  }
}

parentPort?.on('message', (request: SevenZipRequest) => {
  let response: Draft<SevenZipResponse>;
  try {
    response = handle(request);
  } catch {
    // 7-Zip's uncaught C++ exceptions surface here as bare numbers: say so, and let the gateway
    // replace this worker.
    response = { op: 'failure', id: request.id, overBudget: lastCapture?.overBudget ?? false };
  }
  parentPort?.postMessage({ ...response, heapBytes: memory?.buffer.byteLength ?? 0 });
});
const ready: ReadyMessage = { op: 'ready' };
parentPort?.postMessage(ready);
