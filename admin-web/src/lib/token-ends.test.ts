import { describe, expect, it } from '@jest/globals';
import { endWarning } from './token-ends.js';

const NOW = new Date('2026-11-26T12:00:00Z');
const inHours = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();

describe('endWarning', () => {
  it('warns within a week of the end, in whole days rounded up, and says when it has ended', () => {
    expect(endWarning(null, NOW)).toBeNull();
    expect(endWarning(inHours(24 * 8), NOW)).toBeNull();
    expect(endWarning(inHours(24 * 7), NOW)).toBe('Ends in 7 days');
    expect(endWarning(inHours(24 * 2 + 1), NOW)).toBe('Ends in 3 days');
    expect(endWarning(inHours(5), NOW)).toBe('Ends within a day');
    expect(endWarning(inHours(-1), NOW)).toBe('Expired');
  });
});
