// A form's confirmation to the submitter checked as a whole (docs/confirmations.md), with the form's
// settings as they will be after the change: the address field a declared EMAIL field, the safe
// fields declared CHOICE, BOOLEAN or NUMBER fields (never free text), and templates whose
// placeholders name only those. A bad combination changes nothing.
import {
  confirmationTemplateProblem,
  DEFAULT_CONFIRMATION_SUBJECT,
  DEFAULT_CONFIRMATION_TEMPLATE,
  safeFieldProblem,
} from '@intake/shared/delivery';
import type { Form } from '@intake/shared/entities';
import { fromJsonSchema, type DeclaredField } from '@intake/shared/form-shape';
import { badUserInput } from '../errors.js';

/** The confirmation settings as an input gives them: absent leaves one, null removes it. */
export interface FormConfirmationInput {
  confirmationEnabled?: boolean;
  confirmationEmailField?: string | null;
  confirmationSubject?: string | null;
  confirmationTemplate?: string | null;
  confirmationSafeFields?: string[] | null;
}

const CONFIRMATION_KEYS = [
  'confirmationEnabled',
  'confirmationEmailField',
  'confirmationSubject',
  'confirmationTemplate',
  'confirmationSafeFields',
] as const;

/**
 * Sets the given confirmation settings on `form` once the result holds; `fields` is the declared list
 * after the same change (undefined: as stored). BAD_USER_INPUT naming the input's field otherwise.
 */
export function applyConfirmation(
  form: Form,
  input: FormConfirmationInput,
  fields?: readonly DeclaredField[] | null,
): void {
  const given = <K extends (typeof CONFIRMATION_KEYS)[number]>(key: K) => input[key] !== undefined;
  const enabled = input.confirmationEnabled ?? form.confirmationEnabled ?? false;
  const addressField = given('confirmationEmailField')
    ? (input.confirmationEmailField ?? null)
    : (form.confirmationEmailField ?? null);
  const safeFields = given('confirmationSafeFields')
    ? (input.confirmationSafeFields ?? [])
    : (form.confirmationSafeFields ?? []);
  const subject = given('confirmationSubject') ? input.confirmationSubject : form.confirmationSubject;
  const template = given('confirmationTemplate') ? input.confirmationTemplate : form.confirmationTemplate;
  const declared = fields === undefined ? (form.fieldsSchema ? fromJsonSchema(form.fieldsSchema) : []) : (fields ?? []);
  // A change of the declared fields alone is named as the fault when it breaks the settings.
  const at = (key: (typeof CONFIRMATION_KEYS)[number]) => (given(key) ? `input.${key}` : 'input.fields');

  if (enabled && addressField === null) {
    throw badUserInput(
      'input.confirmationEmailField',
      'is required to send confirmations: name a declared EMAIL field',
    );
  }
  if (addressField !== null) {
    const field = declared.find((candidate) => candidate.name === addressField);
    if (field?.type !== 'email') {
      throw badUserInput(
        at('confirmationEmailField'),
        `must name a declared EMAIL field (${addressField} is ${field === undefined ? 'not declared' : `a ${field.type.toUpperCase()} field`})`,
      );
    }
  }
  for (const name of safeFields) {
    const problem = safeFieldProblem(name, declared);
    if (problem !== null) {
      throw badUserInput(at('confirmationSafeFields'), `cannot hold ${name}: ${problem}`);
    }
  }
  for (const [key, text] of [
    ['confirmationSubject', subject ?? DEFAULT_CONFIRMATION_SUBJECT],
    ['confirmationTemplate', template ?? DEFAULT_CONFIRMATION_TEMPLATE],
  ] as const) {
    const problem = confirmationTemplateProblem(text, safeFields);
    if (problem !== null) {
      throw badUserInput(given(key) ? `input.${key}` : 'input.confirmationSafeFields', problem);
    }
  }
  for (const key of CONFIRMATION_KEYS) {
    if (input[key] !== undefined) {
      (form as Record<string, unknown>)[key] =
        key === 'confirmationSafeFields' && input[key]?.length === 0 ? null : input[key];
    }
  }
}

/** The input without the confirmation's keys, for the code that copies the rest. */
export function withoutConfirmation<T extends FormConfirmationInput>(
  input: T,
): Omit<T, (typeof CONFIRMATION_KEYS)[number]> {
  const rest = { ...input } as Record<string, unknown>;
  for (const key of CONFIRMATION_KEYS) {
    delete rest[key];
  }
  return rest as Omit<T, (typeof CONFIRMATION_KEYS)[number]>;
}
