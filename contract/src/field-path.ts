// Where a value sits in a submission, written as a JSON path the way JavaScript reads it: `message`,
// `items[2]`, `contact.note`. A key that would read ambiguously (empty, or holding `.`, `[`, `]`, `"`
// or `\`) is written quoted in brackets: `contact["a.b"]`. The gateway names failing and sanitised
// values with it, the console finds the values it marks with it; docs/intake-api.md describes them.

export type FieldPathSegment = string | number;

const PLAIN_KEY = /^[^.[\]"\\]+$/;

/** The path of the value reached through these keys (strings) and list positions (numbers). */
export function fieldPath(segments: readonly FieldPathSegment[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') {
      path += `[${segment}]`;
    } else if (PLAIN_KEY.test(segment)) {
      path += path === '' ? segment : `.${segment}`;
    } else {
      path += `[${JSON.stringify(segment)}]`;
    }
  }
  return path;
}
