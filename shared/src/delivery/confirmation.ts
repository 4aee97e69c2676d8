// The confirmation to the person who submitted (docs/confirmations.md): whom it goes to, and the
// grammar of its templates. Anyone can type someone else's address into a form, so the message must
// never carry text the visitor typed, or Intake relays whatever a stranger writes to whomever they
// name: a template holds the owner's own words and placeholders for the form's name, the time, the
// submission's id and the values of fields the owner marked safe, which can only be declared fields
// whose values the form itself bounds (a choice, a yes/no, a number).
import { createHash } from 'node:crypto';
import { fromJsonSchema, type DeclaredField, type FieldType, type FormJsonSchema } from '../form-shape/index.js';
import { decodeStoredText } from '../stored-text/index.js';

/** Field types whose values a confirmation may repeat: none of them holds free text. */
export const CONFIRMATION_SAFE_TYPES: ReadonlySet<FieldType> = new Set(['choice', 'boolean', 'number']);

export const CONFIRMATION_SUBJECT_MAX_LENGTH = 200;
export const CONFIRMATION_TEMPLATE_MAX_LENGTH = 5000;
export const CONFIRMATION_SAFE_FIELDS_MAX = 20;

export const DEFAULT_CONFIRMATION_SUBJECT = 'We received your submission to {{form}}';
export const DEFAULT_CONFIRMATION_TEMPLATE =
  'Thank you: we received your submission to {{form}} on {{time}}.\n\nYour reference: {{submission}}';

/** What a placeholder stands for. */
export type Placeholder =
  { kind: 'form' } | { kind: 'time' } | { kind: 'submission' } | { kind: 'field'; name: string };

// `{{ name }}`: a placeholder; `{{` and `}}` appear in a template only as one.
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

function placeholderOf(inner: string): Placeholder | undefined {
  if (inner === 'form' || inner === 'time' || inner === 'submission') {
    return { kind: inner };
  }
  const field = /^field:(.+)$/.exec(inner);
  return field ? { kind: 'field', name: field[1]!.trim() } : undefined;
}

/**
 * Why a template cannot be used with these safe fields, or null: every `{{…}}` must be a known
 * placeholder, a field placeholder must name a safe field, and no stray `{{` or `}}` may remain.
 */
export function confirmationTemplateProblem(template: string, safeFields: readonly string[]): string | null {
  for (const match of template.matchAll(PLACEHOLDER)) {
    const placeholder = placeholderOf(match[1]!);
    if (placeholder === undefined) {
      return `has an unknown placeholder ${match[0]} (use {{form}}, {{time}}, {{submission}} or {{field:NAME}})`;
    }
    if (placeholder.kind === 'field' && !safeFields.includes(placeholder.name)) {
      return `repeats the field ${placeholder.name}, which is not among the fields safe to repeat`;
    }
  }
  const rest = template.replace(PLACEHOLDER, '');
  return rest.includes('{{') || rest.includes('}}') ? 'has an unclosed {{ or a stray }}' : null;
}

/** Why `name` cannot be a safe field of a form declaring `fields`, or null. */
export function safeFieldProblem(name: string, fields: readonly DeclaredField[]): string | null {
  const field = fields.find((candidate) => candidate.name === name);
  if (field === undefined) {
    return `${name} is not a declared field`;
  }
  return CONFIRMATION_SAFE_TYPES.has(field.type)
    ? null
    : `${name} is a ${field.type.toUpperCase()} field: only CHOICE, BOOLEAN and NUMBER fields hold no free text`;
}

export interface TemplateValues {
  formName: string;
  /** ISO 8601, UTC. */
  time: string;
  submissionId: string;
  /** The value of each safe field, already checked and as text; absent: the submission has none. */
  fields: ReadonlyMap<string, string>;
}

/** The template with its placeholders filled in; a placeholder it may not hold becomes empty. */
export function fillConfirmationTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_match, inner: string) => {
    const placeholder = placeholderOf(inner);
    switch (placeholder?.kind) {
      case 'form':
        return values.formName;
      case 'time':
        return values.time;
      case 'submission':
        return values.submissionId;
      case 'field':
        return values.fields.get(placeholder.name) ?? '';
      default:
        return '';
    }
  });
}

/**
 * The values of the safe fields as text, each only when it is what its declared type allows (a
 * choice among the declared ones, a boolean, a finite number): a value that is not, however it got
 * stored, is left out rather than repeated.
 */
export function safeFieldValues(
  data: Record<string, unknown>,
  shape: FormJsonSchema | null,
  safeFields: readonly string[],
): Map<string, string> {
  const declared = shape ? fromJsonSchema(shape) : [];
  const values = new Map<string, string>();
  for (const name of safeFields) {
    const field = declared.find((candidate) => candidate.name === name);
    const value = Object.hasOwn(data, name) ? data[name] : undefined;
    if (field === undefined || !CONFIRMATION_SAFE_TYPES.has(field.type)) {
      continue;
    }
    if (field.type === 'boolean' && typeof value === 'boolean') {
      values.set(name, value ? 'yes' : 'no');
    } else if (field.type === 'number' && typeof value === 'number' && Number.isFinite(value)) {
      values.set(name, String(value));
    } else if (field.type === 'choice' && typeof value === 'string') {
      const choice = decodeStoredText(value);
      if ((field.choices ?? []).includes(choice)) {
        values.set(name, choice);
      }
    }
  }
  return values;
}

// A dot-atom local part and a dotted host name, ASCII only: no display name, no list, no comment, no
// quoted local part, nothing a header could be broken with (the same as a notification's Reply-To).
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const PLAIN_ADDRESS = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`);
const LOCAL_MAX = 64;
const ADDRESS_MAX = 254;

/** The stored value as one plain address, or undefined: anything else (a list, a name, a line break) is none. */
export function plainAddress(value: unknown): string | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const address = decodeStoredText(value).trim();
  const local = address.slice(0, address.lastIndexOf('@'));
  return address.length <= ADDRESS_MAX && local.length <= LOCAL_MAX && PLAIN_ADDRESS.test(address)
    ? address
    : undefined;
}

/** The settings of a form the confirmation rule reads. */
export type ConfirmationSettings = {
  confirmationEnabled?: boolean | null;
  confirmationEmailField?: string | null;
};

/** Whom a submission's confirmation goes to: the one plain address in the form's field, when confirmations are on. */
export function confirmationRecipient(form: ConfirmationSettings, data: Record<string, unknown>): string | undefined {
  const field = form.confirmationEmailField;
  if (form.confirmationEnabled !== true || !field || !Object.hasOwn(data, field)) {
    return undefined;
  }
  return plainAddress(data[field]);
}

/**
 * The row of confirmation_counts that counts an address's confirmations: a hash of the address,
 * trimmed and lower-cased, never the address (the worker takes from it; erasure drops it).
 */
export function confirmationAddressScope(address: string): string {
  return `address:${createHash('sha256').update(address.trim().toLowerCase()).digest('hex')}`;
}
