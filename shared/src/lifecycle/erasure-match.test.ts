// Which values erasure treats as phone numbers, and the needle it compares with.
import { erasureMatchOf } from './erasure-match.js';

describe('erasure match', () => {
  it('treats digits with spaces and + ( ) - . as a phone number, separators removed', () => {
    expect(erasureMatchOf(' +49 (30) 1234-56.7 ')).toEqual({ kind: 'phone', needle: '+49301234567' });
    expect(erasureMatchOf('030 1234')).toEqual({ kind: 'phone', needle: '0301234' });
  });

  it('compares anything else as typed text, trimmed (the stored side is decoded in SQL)', () => {
    expect(erasureMatchOf(' Tom&Jerry@Example.com ')).toEqual({ kind: 'text', needle: 'Tom&Jerry@Example.com' });
    // Too few digits for a phone number: compared as text.
    expect(erasureMatchOf('12-34')).toEqual({ kind: 'text', needle: '12-34' });
    expect(erasureMatchOf('ext. 12345')).toEqual({ kind: 'text', needle: 'ext. 12345' });
  });

  it('refuses values too short or too long to mean one person', () => {
    expect(erasureMatchOf('  ab ')).toBe('too_short');
    expect(erasureMatchOf('x'.repeat(1001))).toBe('too_long');
    expect(erasureMatchOf('x'.repeat(1000))).toMatchObject({ kind: 'text' });
  });
});
