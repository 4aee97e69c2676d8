// What plan says of a form's declared fields: each field added, removed or changed, the order, and
// nothing when the file matches what the API reads back.
import { describe, expect, it } from '@jest/globals';
import type { FormField } from '../api/operations.js';
import { asFormField, diffDeclaredFields } from './declared-fields.js';
import { renderPlan } from './render.js';

const email: FormField = { name: 'email', type: 'EMAIL', required: true, maxLength: null, choices: null };
const message: FormField = { name: 'message', type: 'TEXT', required: false, maxLength: 500, choices: null };
const topic: FormField = { name: 'topic', type: 'CHOICE', required: false, maxLength: null, choices: ['a', 'b'] };

const lines = (changes: ReturnType<typeof diffDeclaredFields>) =>
  renderPlan([{ action: 'update', kind: 'form', address: 'form "S" / "F"', fields: changes, run: async () => {} }], 'f')
    .split('\n')
    .filter((line) => line.startsWith('    '))
    .map((line) => line.trim());

describe('declared fields in a plan', () => {
  it('finds nothing when the file, as the API normalises it, matches the server', () => {
    const file = [
      asFormField({ name: 'email', type: 'EMAIL', required: true }),
      asFormField({ name: ' message', type: 'TEXT', maxLength: 500 }),
      asFormField({ name: 'topic', type: 'CHOICE', choices: ['a ', 'b'] }),
    ];
    expect(diffDeclaredFields(file, [email, message, topic])).toEqual([]);
  });

  it('prints each field added, removed and changed, property by property', () => {
    expect(
      lines(
        diffDeclaredFields(
          [
            { ...email, required: false },
            { ...message, maxLength: 1000 },
            { name: 'tags', type: 'LIST', required: false, maxLength: 40, choices: null },
          ],
          [email, message, topic],
        ),
      ),
    ).toEqual([
      'fields: -topic',
      'fields: ~email required true → false',
      'fields: ~message maxLength 500 → 1000',
      'fields: +tags (LIST, maxLength 40)',
    ]);
  });

  it('prints a change of order, and a type change with its choices', () => {
    expect(
      lines(diffDeclaredFields([message, email, { ...topic, choices: ['a', 'c'] }], [email, message, topic])),
    ).toEqual(['fields: ~topic choices a, b → a, c', 'fields: order email, message, topic → message, email, topic']);
    expect(lines(diffDeclaredFields([{ ...message, type: 'NUMBER', maxLength: null }], [message]))).toEqual([
      'fields: ~message type TEXT → NUMBER',
      'fields: ~message maxLength 500 → none',
    ]);
  });

  it('gives scripts each change by path, with the values', () => {
    expect(diffDeclaredFields([{ ...message, maxLength: 1000 }, email], [message])).toEqual([
      expect.objectContaining({ field: 'fields.message.maxLength', from: 500, to: 1000 }),
      expect.objectContaining({ field: 'fields.email', to: email }),
    ]);
  });
});
