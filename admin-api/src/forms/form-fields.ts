// zod schema of a form's declared fields (docs/form-fields.md). Each problem names the field's place
// in the list and the property at fault (`input.fields.2.choices`), so the console can mark it.
import {
  CHOICE_MAX_LENGTH,
  CHOICES_MAX,
  DECLARED_FIELDS_MAX,
  FIELD_MAX_LENGTH_MAX,
  LENGTH_TYPES,
  type DeclaredField,
  type FieldType,
} from '@intake/shared/form-shape';
import { z } from 'zod';
import { FieldTypeEnum } from './form.type.js';
import { codePoints, FIELD_NAME_MAX_LENGTH, isPlainText } from '@intake/shared/input-fields';

// The gateway refuses these keys in any body (validate-body.ts), so a field of that name could never be sent.
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
const NOT_IN_NAME = /[<>"']/;

function nameProblem(name: string): string | undefined {
  if (name === '' || codePoints(name) > FIELD_NAME_MAX_LENGTH) {
    return `must be 1 to ${FIELD_NAME_MAX_LENGTH} characters`;
  }
  if (!isPlainText(name) || NOT_IN_NAME.test(name)) {
    return 'must not hold control characters, quotes, < or >';
  }
  return FORBIDDEN_NAMES.has(name) ? 'is a name no submission may use' : undefined;
}

/** Each property's own check, declared on FormFieldInput's fields; the list is checked as a whole below. */
export const formFieldShape = {
  name: z.string().trim(),
  type: z.enum(FieldTypeEnum),
  required: z.boolean({ error: 'cannot be null' }),
  maxLength: z.number().nullish(),
  choices: z.array(z.string()).nullish(),
};

const fieldInput = z.object(formFieldShape);

type Issue = { path: (string | number)[]; message: string };

function problemsOf(field: z.output<typeof fieldInput>, position: number, seen: Set<string>): Issue[] {
  const at = (property: string, message: string): Issue => ({ path: [position, property], message });
  const issues: Issue[] = [];
  const type = field.type as FieldType;
  const problem = nameProblem(field.name);
  if (problem !== undefined) {
    issues.push(at('name', problem));
  } else if (seen.has(field.name)) {
    issues.push(at('name', 'is declared twice'));
  }
  seen.add(field.name);
  const { maxLength, choices } = field;
  if (maxLength !== null && maxLength !== undefined) {
    if (!LENGTH_TYPES.has(type)) {
      issues.push(at('maxLength', 'applies only to TEXT, EMAIL and LIST fields'));
    } else if (!Number.isSafeInteger(maxLength) || maxLength < 1 || maxLength > FIELD_MAX_LENGTH_MAX) {
      issues.push(at('maxLength', `must be between 1 and ${FIELD_MAX_LENGTH_MAX}`));
    }
  }
  if (type !== 'choice') {
    if (choices !== null && choices !== undefined) {
      issues.push(at('choices', 'applies only to CHOICE fields'));
    }
  } else if (!choices || choices.length === 0 || choices.length > CHOICES_MAX) {
    issues.push(at('choices', `must hold 1 to ${CHOICES_MAX} choices`));
  } else if (choices.some((choice) => choice.trim() === '' || codePoints(choice) > CHOICE_MAX_LENGTH)) {
    issues.push(at('choices', `must hold choices of 1 to ${CHOICE_MAX_LENGTH} characters`));
  } else if (!choices.every(isPlainText)) {
    issues.push(at('choices', 'must not hold control characters'));
  } else if (new Set(choices.map((choice) => choice.trim())).size !== choices.length) {
    issues.push(at('choices', 'must not repeat a choice'));
  }
  return issues;
}

/** The declared fields, checked as a whole; null or [] declares none (every key is accepted). */
export const formFields = z
  .array(fieldInput)
  .nullable()
  .transform((fields, context): DeclaredField[] | null => {
    if (fields === null || fields.length === 0) {
      return null;
    }
    if (fields.length > DECLARED_FIELDS_MAX) {
      context.addIssue({ code: 'custom', message: `must hold at most ${DECLARED_FIELDS_MAX} fields` });
      return z.NEVER;
    }
    const seen = new Set<string>();
    const issues = fields.flatMap((field, position) => problemsOf(field, position, seen));
    for (const issue of issues) {
      context.addIssue({ code: 'custom', ...issue });
    }
    if (issues.length > 0) {
      return z.NEVER;
    }
    return fields.map((field) => ({
      name: field.name,
      type: field.type as FieldType,
      required: field.required,
      maxLength: field.maxLength ?? null,
      choices: field.type === FieldTypeEnum.CHOICE ? (field.choices ?? []).map((choice) => choice.trim()) : null,
    }));
  });
