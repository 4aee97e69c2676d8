// How many submissions an export stream has carried so far, for the progress line. NDJSON ends each
// with a line break; CSV too, outside quoted cells (which may hold line breaks), after one header
// line; the JSON array starts each on a new line with `{` (a row never holds a raw line break).
// Counted here because no library counts the records of three formats as the bytes go by.

const QUOTE = 0x22;
const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;

export class RecordCounter {
  private lines = 0;
  private inQuotes = false;
  private afterNewline = false;

  constructor(private readonly format: 'csv' | 'json' | 'ndjson') {}

  push(chunk: Uint8Array): void {
    const csv = this.format === 'csv';
    for (const byte of chunk) {
      if (this.format === 'json') {
        if (this.afterNewline && byte === OPEN_BRACE) {
          this.lines += 1;
        }
        this.afterNewline = byte === NEWLINE;
      } else if (csv && byte === QUOTE) {
        // A doubled quote inside a cell toggles twice: the state stays right across chunks too.
        this.inQuotes = !this.inQuotes;
      } else if (byte === NEWLINE && !this.inQuotes) {
        this.lines += 1;
      }
    }
  }

  get records(): number {
    return Math.max(0, this.lines - (this.format === 'csv' ? 1 : 0));
  }
}

export function progressText(records: number, total: number | undefined, bytes: number): string {
  const size = bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (total === undefined || total === 0) {
    return `Exporting: ${records.toLocaleString('en')} submissions, ${size}`;
  }
  const done = Math.min(records, total);
  return `Exporting: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} submissions (${Math.floor((done / total) * 100)}%), ${size}`;
}
