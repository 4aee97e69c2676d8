import { fieldPath } from './field-path.js';

describe('fieldPath', () => {
  it('writes keys and list positions as JavaScript reads them', () => {
    expect(fieldPath(['message'])).toBe('message');
    expect(fieldPath(['items', 2])).toBe('items[2]');
    expect(fieldPath(['contact', 'note'])).toBe('contact.note');
    expect(fieldPath([0, 'a'])).toBe('[0].a');
  });

  it('quotes in brackets a key that would read ambiguously', () => {
    expect(fieldPath(['contact', 'a.b'])).toBe('contact["a.b"]');
    expect(fieldPath([''])).toBe('[""]');
    expect(fieldPath(['x', 'say "hi"', 'b[1]', 'back\\slash'])).toBe('x["say \\"hi\\""]["b[1]"]["back\\\\slash"]');
  });
});
