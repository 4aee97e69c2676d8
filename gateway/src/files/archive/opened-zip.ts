// One opening of a ZIP for every stage that reads it. A DOCX, XLSX or PPTX is read by the type
// stage (its central directory and two small parts say which document it is) and then by the
// archive stage (every entry). Opened once, the package costs one search for its end record, one
// file descriptor and one pass over a central directory of up to 10,000 entries, not two.
import type { Entry, Options, ZipFile } from 'yauzl';
import yauzl from 'yauzl';
import { CachedFileReader } from './file-reader.js';
import { zipSizeOfBuffer, zipSizeOfFile } from './zip-end.js';

// decodeStrings: false hands us the raw name bytes, which the archive stage validates itself
// (yauzl's own check runs on a decoded, backslash-normalised name, and would refuse `../` names
// before the archive stage can judge them). validateEntrySizes: false because the stages enforce
// declared sizes themselves (the archive stage stops at the first excess byte and reports a bomb).
// autoClose: false keeps the file open after the directory pass, for the reads that follow.
const OPTIONS: Options = {
  autoClose: false,
  lazyEntries: true,
  decodeStrings: false,
  validateEntrySizes: false,
  strictFileNames: true,
};

/** An open ZIP whose central directory is read at most once, whoever asks first. */
export class OpenedZip {
  /** Where the central directory starts, taken before anything advances yauzl's cursor. */
  readonly directoryOffset: number | null;
  private listing: Promise<readonly Entry[]> | undefined;

  private constructor(readonly zipfile: ZipFile) {
    // Failures reach us through the call that hits them; an 'error' yauzl emits later (closing the
    // file) has no listener left and would otherwise crash the process.
    zipfile.on('error', () => undefined);
    // yauzl keeps the directory's offset only as its (not yet advanced) read cursor.
    const cursor: unknown = (zipfile as unknown as { readEntryCursor?: unknown }).readEntryCursor;
    this.directoryOffset = typeof cursor === 'number' ? cursor : null;
  }

  /** Opens the ZIP at `path`, without the few stray bytes tolerated after its end (zip-end.ts). */
  static async ofFile(path: string): Promise<OpenedZip> {
    const size = await zipSizeOfFile(path);
    const reader = await CachedFileReader.open(path);
    try {
      return new OpenedZip(await yauzl.fromRandomAccessReaderPromise(reader, Math.min(size, reader.size), OPTIONS));
    } catch (error) {
      reader.close(() => undefined);
      throw error;
    }
  }

  /** Opens a ZIP held in memory (an archive nested in an upload). */
  static async ofBuffer(bytes: Buffer): Promise<OpenedZip> {
    return new OpenedZip(await yauzl.fromBufferPromise(bytes.subarray(0, zipSizeOfBuffer(bytes)), OPTIONS));
  }

  /** The count the end-of-central-directory record announces, known before any entry is read. */
  get entryCount(): number {
    return this.zipfile.entryCount;
  }

  /** Every central directory entry, in directory order, unjudged; read on the first call only. */
  entries(): Promise<readonly Entry[]> {
    this.listing ??= (async () => {
      const entries: Entry[] = [];
      for await (const entry of this.zipfile.eachEntry()) {
        entries.push(entry);
      }
      return entries;
    })();
    return this.listing;
  }

  /** Closes the file once the last read stream is done with it. */
  close(): void {
    this.zipfile.close();
  }
}

/**
 * The ZIP at one path, opened on first use and then shared by the stages of that file's pipeline;
 * whoever creates it closes it. Nothing is opened for a file no stage reads as a ZIP.
 */
export class SharedZip {
  private opening: Promise<OpenedZip> | undefined;

  constructor(readonly path: string) {}

  open(): Promise<OpenedZip> {
    this.opening ??= OpenedZip.ofFile(this.path);
    return this.opening;
  }

  close(): void {
    // A failed opening left nothing open.
    this.opening?.then(
      (zip) => zip.close(),
      () => undefined,
    );
  }
}

/** Runs `work` on the shared opening when there is one, else on an opening of its own, closed after. */
export async function withZip<T>(
  path: string,
  shared: SharedZip | undefined,
  work: (zip: OpenedZip) => Promise<T>,
): Promise<T> {
  if (shared !== undefined) {
    return work(await shared.open());
  }
  const zip = await OpenedZip.ofFile(path);
  try {
    return await work(zip);
  } finally {
    zip.close();
  }
}
