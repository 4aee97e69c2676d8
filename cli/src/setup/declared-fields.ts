// A form's declared fields (docs/form-fields.md) in the file against the server's: what plan prints,
// field by field (added, removed, a property changed, the order changed), and the whole list
// updateForm takes, since the API replaces the list as a whole.
import type { FormField } from '../api/operations.js';
import type { FieldChange } from './field-change.js';
import type { DeclaredFieldSpec } from './schema.js';

const PROPERTIES = ['type', 'required', 'maxLength', 'choices'] as const;

/** A field as `Form.fields` reads it back (the API trims the name and the choices), so equal compares equal. */
export function asFormField(spec: DeclaredFieldSpec): FormField {
  return {
    name: spec.name.trim(),
    type: spec.type,
    required: spec.required ?? false,
    maxLength: spec.maxLength ?? null,
    choices: spec.choices?.map((choice) => choice.trim()) ?? null,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `email (EMAIL, required, maxLength 200)`: a field in one line, as plan prints an added one. */
function describe(field: FormField): string {
  const details: string[] = [field.type];
  if (field.required) {
    details.push('required');
  }
  if (field.maxLength !== null) {
    details.push(`maxLength ${field.maxLength}`);
  }
  if (field.choices) {
    details.push(`choices ${field.choices.join(', ')}`);
  }
  return `${field.name} (${details.join(', ')})`;
}

const show = (value: unknown) => (Array.isArray(value) ? value.join(', ') : value === null ? 'none' : String(value));

/** The changes that turn `current` (none for a form still to create) into `desired`; [] when equal. */
export function diffDeclaredFields(desired: FormField[], current: FormField[]): FieldChange[] {
  const changes: FieldChange[] = [];
  const currentByName = new Map(current.map((field) => [field.name, field]));
  const desiredNames = new Set(desired.map((field) => field.name));
  for (const field of current) {
    if (!desiredNames.has(field.name)) {
      changes.push({ field: `fields.${field.name}`, from: field, to: null, text: `fields: -${field.name}` });
    }
  }
  for (const field of desired) {
    const before = currentByName.get(field.name);
    if (!before) {
      changes.push({ field: `fields.${field.name}`, to: field, text: `fields: +${describe(field)}` });
      continue;
    }
    for (const property of PROPERTIES) {
      if (!same(before[property], field[property])) {
        changes.push({
          field: `fields.${field.name}.${property}`,
          from: before[property],
          to: field[property],
          text: `fields: ~${field.name} ${property} ${show(before[property])} → ${show(field[property])}`,
        });
      }
    }
  }
  // The order is the inbox's column order: a change of it among the fields kept is a change too.
  const keptBefore = current.map((field) => field.name).filter((name) => desiredNames.has(name));
  const keptAfter = desired.map((field) => field.name).filter((name) => currentByName.has(name));
  if (!same(keptBefore, keptAfter)) {
    changes.push({
      field: 'fields.order',
      from: keptBefore,
      to: keptAfter,
      text: `fields: order ${keptBefore.join(', ')} → ${keptAfter.join(', ')}`,
    });
  }
  return changes;
}
