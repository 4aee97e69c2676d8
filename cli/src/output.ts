// What a command prints: JSON for scripts (`--output json`), aligned columns or key/value lines for people.
import { stdout } from 'node:process';

export type OutputFormat = 'text' | 'json';

export function printJson(value: unknown): void {
  stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function cell(value: unknown): string {
  if (value === null || value === undefined) {
    return '-';
  }
  if (Array.isArray(value)) {
    return value.length ? value.map(cell).join(',') : '-';
  }
  if (typeof value === 'object') {
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * Columns padded to their widest cell. Hand-written: a dozen lines, where table libraries add box
 * drawing that scripts then have to strip (scripts use --output json).
 */
export function printTable(rows: Record<string, unknown>[], columns: string[]): void {
  if (rows.length === 0) {
    stdout.write('(none)\n');
    return;
  }
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, index) => Math.max(column.length, ...cells.map((line) => line[index]!.length)));
  const line = (values: string[]) =>
    values
      .map((value, index) => (index === values.length - 1 ? value : value.padEnd(widths[index]!)))
      .join('  ')
      .trimEnd();
  stdout.write(`${[line(columns.map(heading)), ...cells.map(line)].join('\n')}\n`);
}

/** A column's heading: its field name in words (`submissionsLast7Days` → `SUBMISSIONS LAST 7 DAYS`). */
export function heading(field: string): string {
  return field
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .toUpperCase();
}

/** One `key: value` line per field, nested objects as JSON. */
export function printRecord(record: object): void {
  const entries = Object.entries(record);
  const width = Math.max(...entries.map(([key]) => key.length));
  stdout.write(`${entries.map(([key, value]) => `${`${key}:`.padEnd(width + 1)} ${cell(value)}`).join('\n')}\n`);
}

export class Output {
  constructor(readonly format: OutputFormat) {}

  get json(): boolean {
    return this.format === 'json';
  }

  list(rows: object[], columns: string[]): void {
    if (this.json) {
      printJson(rows);
    } else {
      printTable(rows as Record<string, unknown>[], columns);
    }
  }

  record(record: object | null | undefined, text?: () => void): void {
    if (this.json) {
      printJson(record ?? null);
    } else if (text) {
      text();
    } else if (record) {
      printRecord(record);
    }
  }

  /** A message for people; in JSON mode the value instead. */
  done(message: string, value: unknown): void {
    if (this.json) {
      printJson(value);
    } else {
      stdout.write(`${message}\n`);
    }
  }
}
