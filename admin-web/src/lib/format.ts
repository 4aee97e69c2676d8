// Dates and sizes as people read them, in the browser's locale.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO 8601 instant from the API as a local date and time; `fallback` when absent. */
export function formatDateTime(iso: string | null | undefined, fallback = '—'): string {
  if (!iso) {
    return fallback;
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? fallback : dateTime.format(date);
}

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB'] as const;

/** A byte count with a binary unit: `10 MiB`, `1.5 KiB`, `900 bytes`. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
  return `${rounded} ${UNITS[unit]}`;
}
