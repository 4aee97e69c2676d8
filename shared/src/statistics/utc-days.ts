// Statistics count by calendar day in UTC, whatever the server's or the viewer's time zone, so two
// gateways in different zones add to the same day and a chart means the same thing everywhere.

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC calendar day of an instant, as `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The last `count` UTC days up to and including today's, oldest first. */
export function lastUtcDays(count: number, now: Date = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, index) => utcDay(new Date(today - (count - 1 - index) * DAY_MS)));
}

/** Midnight UTC at the start of a `YYYY-MM-DD` day. */
export function startOfUtcDay(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

export interface DailyCount {
  day: string;
  count: number;
}

/** One count per day of `days`, in their order, 0 where `counts` has none. */
export function fillDays(days: readonly string[], counts: ReadonlyMap<string, number>): DailyCount[] {
  return days.map((day) => ({ day, count: counts.get(day) ?? 0 }));
}
