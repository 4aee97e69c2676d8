// Dates and sizes as people read them, in the browser's locale.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'always' });

function formatInstant(format: Intl.DateTimeFormat, iso: string | null | undefined, fallback: string): string {
  if (!iso) {
    return fallback;
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? fallback : format.format(date);
}

/** An ISO 8601 instant from the API as a local date and time; `fallback` when absent. */
export function formatDateTime(iso: string | null | undefined, fallback = '—'): string {
  return formatInstant(dateTime, iso, fallback);
}

/** As formatDateTime, with seconds: for rows that would otherwise read alike. */
export function formatDateTimeSeconds(iso: string | null | undefined, fallback = '—'): string {
  return formatInstant(dateTimeSeconds, iso, fallback);
}

/** An ISO 8601 instant as a local date (`24 November 2026`); `fallback` when absent. */
export function formatDate(iso: string | null | undefined, fallback = '—'): string {
  return formatInstant(dateOnly, iso, fallback);
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

/**
 * When something refused for `seconds` (an API's `retryAfter`) may be tried again, from `now`:
 * `in 4 minutes (at 4:12 PM)`; under a minute in seconds, from 2 hours in hours (rounded up).
 */
export function formatRetryAfter(seconds: number, now: Date = new Date()): string {
  const wait = Math.max(1, Math.ceil(seconds));
  const inWords =
    wait < 60
      ? relative.format(wait, 'second')
      : wait < 2 * 3600
        ? relative.format(Math.ceil(wait / 60), 'minute')
        : relative.format(Math.ceil(wait / 3600), 'hour');
  return `${inWords} (at ${timeOnly.format(new Date(now.getTime() + wait * 1000))})`;
}
