// How erasure on request recognises a value. A submission matches when any of its values, at any
// depth (nested objects, arrays), equals the value given:
// - a phone number (only digits, spaces and `+ ( ) - .`, at least 5 digits): equal once spaces
//   and those separators are removed on both sides (`+49 30 1234-56` finds `+4930123456`);
// - anything else (an e-mail address, a name): equal trimmed, case-insensitively, to the stored
//   value read back as it was typed (the database's intake_stored_text, the SQL copy of
//   decodeStoredText in ../stored-text/index.ts), so `o'brien@example.com` finds `o&#39;brien@example.com`.

export const ERASURE_VALUE_MIN_LENGTH = 3;
export const ERASURE_VALUE_MAX_LENGTH = 1000;

const PHONE = /^\+?[\d\s().-]+$/;
const PHONE_MIN_DIGITS = 5;
const PHONE_SEPARATORS = /[\s().-]/g;

export interface ErasureMatch {
  kind: 'phone' | 'text';
  /** The value as the SQL condition compares it (as typed; separators removed for a phone). */
  needle: string;
}

/** The match for a value, or why there is none (`too_short`, `too_long`). */
export function erasureMatchOf(value: string): ErasureMatch | 'too_short' | 'too_long' {
  const trimmed = value.trim();
  if (trimmed.length < ERASURE_VALUE_MIN_LENGTH) {
    return 'too_short';
  }
  if (trimmed.length > ERASURE_VALUE_MAX_LENGTH) {
    return 'too_long';
  }
  const digits = trimmed.replace(/\D/g, '').length;
  if (PHONE.test(trimmed) && digits >= PHONE_MIN_DIGITS) {
    return { kind: 'phone', needle: trimmed.replace(PHONE_SEPARATORS, '') };
  }
  return { kind: 'text', needle: trimmed };
}

/**
 * A SQL condition on the text expression `stored` (one stored value) with one `?` for the needle.
 * A stored no-break space is `&nbsp;`, so it counts as a space in a phone number.
 */
export function erasureCondition(match: ErasureMatch, stored: string): string {
  return match.kind === 'phone'
    ? `regexp_replace(${stored}, '&nbsp;|[[:space:]().-]', '', 'g') = ?`
    : `lower(btrim(public.intake_stored_text(${stored}))) = lower(?)`;
}
