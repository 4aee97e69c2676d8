// Messages between the gateway and the 7-Zip worker (sevenzip-worker.ts). Types only: the worker
// is loaded by Node itself (not by the test runner's transform), so it may import nothing else from
// this project at run time, and `import type` is erased.

/** Options fixed for the worker's life. */
export interface SevenZipWorkerData {
  /** The compiled 7zz.wasm, shared by every worker so none compiles it again. */
  wasmModule: WebAssembly.Module;
  /** Cap on the WebAssembly heap: a crafted dictionary size must not take the host's memory. */
  maxWasmHeapBytes: number;
}

/** Writes bytes into a new file of the worker's in-memory file system. */
export interface LoadRequest {
  op: 'load';
  id: number;
  bytes: Uint8Array;
}

/** `7z l -slt` of a file of the in-memory file system. */
export interface ListRequest {
  op: 'list';
  id: number;
  file: string;
  /** Stops keeping listing lines past this many entries (the answer says so). */
  maxEntries: number;
}

/**
 * `7z x` of a file into a fresh in-memory folder, keeping only what the checks need: the first
 * bytes of each file, its actual size, and the whole of the files named in `keep` (nested archives,
 * to be opened in turn).
 */
export interface ExtractRequest {
  op: 'extract';
  id: number;
  file: string;
  /** Bytes produced beyond this total stop the extraction (the answer says so). */
  maxTotalBytes: number;
  headBytes: number;
  /** Paths relative to the archive root, as `ExtractedFile.path` gives them. */
  keep: string[];
}

/** Hands back a whole file of the in-memory file system. */
export interface ReadRequest {
  op: 'read';
  id: number;
  file: string;
}

/** Drops a file or folder of the in-memory file system. */
export interface RemoveRequest {
  op: 'remove';
  id: number;
  file: string;
}

export type SevenZipRequest = LoadRequest | ListRequest | ExtractRequest | ReadRequest | RemoveRequest;

interface ResponseBase {
  id: number;
  /** Current size of the WebAssembly heap (it never shrinks: the pool retires big workers). */
  heapBytes: number;
}

export interface LoadResponse extends ResponseBase {
  op: 'load';
  /** Where the bytes now are in the in-memory file system. */
  file: string;
}

export interface ListResponse extends ResponseBase {
  op: 'list';
  exitCode: number;
  /** Standard output, line by line (7-Zip replaces control characters in names with `_`). */
  lines: string[];
  errorLines: string[];
  /** Entries seen, even past `maxEntries`. */
  entryCount: number;
  truncated: boolean;
}

export interface ExtractedFile {
  /** Relative to the archive root, as 7-Zip wrote it. */
  path: string;
  /** Bytes 7-Zip actually produced. */
  size: number;
  head: Uint8Array;
  /** Where the whole file is kept in the in-memory file system, when asked for. */
  keptAt?: string;
}

export interface ExtractResponse extends ResponseBase {
  op: 'extract';
  /** The folder 7-Zip extracted into (to remove once the kept files are inspected). */
  outDir: string;
  exitCode: number;
  errorLines: string[];
  files: ExtractedFile[];
  /** Total bytes produced, up to the point where extraction stopped. */
  totalBytes: number;
  overBudget: boolean;
  /** Files written without passing through the byte counter (so never judged): must be 0. */
  uncaptured: number;
}

export interface ReadResponse extends ResponseBase {
  op: 'read';
  bytes: Uint8Array;
}

export interface RemoveResponse extends ResponseBase {
  op: 'remove';
}

/**
 * 7-Zip threw instead of returning (its C++ exceptions are not caught in this build, and an
 * allocation failure can surface the same way): the worker's state is no longer trusted.
 */
export interface FailureResponse extends ResponseBase {
  op: 'failure';
  /** Set when the failure came from an extraction that had gone over its budget. */
  overBudget: boolean;
}

/** Sent once, when 7-Zip is ready. */
export interface ReadyMessage {
  op: 'ready';
}

export type SevenZipResponse =
  LoadResponse | ListResponse | ExtractResponse | ReadResponse | RemoveResponse | FailureResponse;
