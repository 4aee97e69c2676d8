// The grammar of a confirmation's templates and the values they may repeat (docs/confirmations.md):
// placeholders only of the form, the time, the submission and safe fields; at send time a safe
// field's value is repeated only when it is what its declared type allows.
import { toJsonSchema } from '../form-shape/index.js';
import {
  confirmationRecipient,
  confirmationTemplateProblem,
  fillConfirmationTemplate,
  safeFieldProblem,
  safeFieldValues,
} from './confirmation.js';

const FIELDS = [
  { name: 'email', type: 'email', required: true, maxLength: null, choices: null },
  { name: 'plan', type: 'choice', required: false, maxLength: null, choices: ['Basic', 'Pro & more'] },
  { name: 'seats', type: 'number', required: false, maxLength: null, choices: null },
  { name: 'agree', type: 'boolean', required: false, maxLength: null, choices: null },
  { name: 'message', type: 'text', required: false, maxLength: null, choices: null },
] as const;
const SHAPE = toJsonSchema(FIELDS.map((field) => ({ ...field, choices: field.choices ? [...field.choices] : null })));

describe('confirmation templates', () => {
  it.each([
    ['Thanks for {{form}} at {{ time }}, ref {{submission}}: {{field:plan}}', null],
    ['Hi {{name}}', 'has an unknown placeholder {{name}}'],
    ['You wrote {{field:message}}', 'repeats the field message'],
    ['Hi {{form}', 'has an unclosed {{ or a stray }}'],
    ['Hi }} there', 'has an unclosed {{ or a stray }}'],
  ])('%s', (template, problem) => {
    const found = confirmationTemplateProblem(template, ['plan']);
    if (problem === null) {
      expect(found).toBeNull();
    } else {
      expect(found).toContain(problem);
    }
  });

  it('marks only choice, boolean and number fields safe', () => {
    const declared = FIELDS.map((field) => ({ ...field, choices: field.choices ? [...field.choices] : null }));
    expect(['plan', 'seats', 'agree'].map((name) => safeFieldProblem(name, declared))).toEqual([null, null, null]);
    expect(safeFieldProblem('message', declared)).toContain('TEXT field');
    expect(safeFieldProblem('email', declared)).toContain('EMAIL field');
    expect(safeFieldProblem('colour', declared)).toContain('not a declared field');
  });

  it('repeats a safe value only when its type allows it, decoded once', () => {
    const values = safeFieldValues({ plan: 'Pro &amp; more', seats: 3, agree: true, message: 'free text' }, SHAPE, [
      'plan',
      'seats',
      'agree',
      'message',
    ]);
    expect(Object.fromEntries(values)).toEqual({ plan: 'Pro & more', seats: '3', agree: 'yes' });
    // Stored otherwise than declared (a form changed since, a row edited): left out.
    expect(Object.fromEntries(safeFieldValues({ plan: 'Free text', seats: '3' }, SHAPE, ['plan', 'seats']))).toEqual(
      {},
    );
    const text = fillConfirmationTemplate('{{form}}/{{time}}/{{submission}}/{{field:plan}}/{{field:message}}', {
      formName: 'Quote',
      time: '2026-11-29T00:00:00.000Z',
      submissionId: 'id-1',
      fields: values,
    });
    expect(text).toBe('Quote/2026-11-29T00:00:00.000Z/id-1/Pro & more/');
  });

  it('sends to one plain address in the form field, only while confirmations are on', () => {
    const form = { confirmationEnabled: true, confirmationEmailField: 'email' };
    expect(confirmationRecipient(form, { email: ' ada@example.org ' })).toBe('ada@example.org');
    expect(confirmationRecipient(form, { email: 'Ada &lt;ada@example.org&gt;' })).toBeUndefined();
    expect(confirmationRecipient(form, { email: 'a@example.org, b@example.org' })).toBeUndefined();
    expect(confirmationRecipient(form, { email: 'ada@example.org\r\nBcc: b@example.org' })).toBeUndefined();
    expect(
      confirmationRecipient({ ...form, confirmationEnabled: false }, { email: 'ada@example.org' }),
    ).toBeUndefined();
  });
});
