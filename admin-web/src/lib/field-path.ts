// The JSON path of a value in a submission (`message`, `items[2]`, `contact.note`), written exactly as
// the gateway writes the paths of the values its sanitiser changed (shared/src/field-path.ts, which
// the browser bundle does not load), so the view can mark those values. Keys that would read
// ambiguously are quoted in brackets: `contact["a.b"]`.
export type FieldPathSegment = string | number;

const PLAIN_KEY = /^[^.[\]"\\]+$/;

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
