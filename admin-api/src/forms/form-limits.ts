// A form's cap and schedule checked as a whole (docs/submissions.md#caps-and-a-schedule), with the
// form's settings as they will be after the change: the opening before the closing, and a
// per-address cap counting a declared EMAIL field. A bad combination changes nothing.
import type { Form } from '@intake/shared/entities';
import type { DeclaredField } from '@intake/shared/form-shape';
import { fromJsonSchema } from '@intake/shared/form-shape';
import { badUserInput } from '../errors.js';

/** The settings of the cap and schedule as an input gives them: absent leaves one, null removes it. */
export interface FormLimitsInput {
  maxSubmissions?: number | null;
  maxSubmissionsPerAddress?: number | null;
  capAddressField?: string | null;
  opensAt?: Date | null;
  closesAt?: Date | null;
}

const LIMIT_KEYS = ['maxSubmissions', 'maxSubmissionsPerAddress', 'capAddressField', 'opensAt', 'closesAt'] as const;

/**
 * Sets the given limits on `form` once the result makes sense; `fields` is the declared list after
 * the same change (undefined: as stored). BAD_USER_INPUT naming the input's field otherwise.
 */
export function applyFormLimits(form: Form, input: FormLimitsInput, fields?: readonly DeclaredField[] | null): void {
  const next = Object.fromEntries(
    LIMIT_KEYS.map((key) => [key, input[key] !== undefined ? input[key] : (form[key] ?? null)]),
  ) as Required<{ [K in (typeof LIMIT_KEYS)[number]]: NonNullable<FormLimitsInput[K]> | null }>;
  if (next.opensAt !== null && next.closesAt !== null && next.opensAt >= next.closesAt) {
    throw badUserInput(
      input.closesAt !== undefined ? 'input.closesAt' : 'input.opensAt',
      'must leave the opening before the closing',
    );
  }
  if (next.maxSubmissionsPerAddress !== null && next.capAddressField === null) {
    throw badUserInput(
      'input.capAddressField',
      'is required with maxSubmissionsPerAddress: name a declared EMAIL field',
    );
  }
  if (next.capAddressField !== null) {
    const declared =
      fields === undefined ? (form.fieldsSchema ? fromJsonSchema(form.fieldsSchema) : []) : (fields ?? []);
    const field = declared.find((candidate) => candidate.name === next.capAddressField);
    if (field?.type !== 'email') {
      throw badUserInput(
        input.capAddressField !== undefined ? 'input.capAddressField' : 'input.fields',
        `must name a declared EMAIL field (${next.capAddressField} is ${field === undefined ? 'not declared' : `a ${field.type.toUpperCase()} field`})`,
      );
    }
  }
  for (const key of LIMIT_KEYS) {
    if (input[key] !== undefined) {
      (form as Record<string, unknown>)[key] = input[key];
    }
  }
}

/** The input without the limits' keys, for the code that copies the rest. */
export function withoutLimits<T extends FormLimitsInput>(input: T): Omit<T, (typeof LIMIT_KEYS)[number]> {
  const rest = { ...input } as Record<string, unknown>;
  for (const key of LIMIT_KEYS) {
    delete rest[key];
  }
  return rest as Omit<T, (typeof LIMIT_KEYS)[number]>;
}
