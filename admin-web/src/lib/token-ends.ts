// When an API token ends, as the list warns about it: a token that ends within a week is marked
// (`Ends in 3 days`) so its owner makes a new one before their program is refused.
const DAY_MS = 86_400_000;
export const WARN_DAYS = 7;

/** The warning for a token's end, or null when it ends later than a week from `now` (or never). */
export function endWarning(expiresAt: string | null | undefined, now: Date = new Date()): string | null {
  if (!expiresAt) {
    return null;
  }
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (Number.isNaN(left) || left > WARN_DAYS * DAY_MS) {
    return null;
  }
  if (left <= 0) {
    return 'Expired';
  }
  const days = Math.ceil(left / DAY_MS);
  return days === 1 ? 'Ends within a day' : `Ends in ${days} days`;
}
