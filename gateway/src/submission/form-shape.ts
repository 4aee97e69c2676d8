// A form's declared shape, enforced (docs/form-fields.md): its stored JSON Schema compiled with ajv,
// once per form as the site cache holds it, and a submission that breaks it refused as
// `fields_invalid` naming every failing field, before the CAPTCHA provider is asked or a file is
// stored. The reasons are written here, not ajv's messages: ajv's quote allowed values and formats
// in its own words; ours name the rule and never a submitted value.
import type { Form } from '@intake/shared/entities';
import { AppError, type FieldProblem } from '@intake/shared/errors';
import { fieldPath } from '@intake/shared/field-path';
import type { FormJsonSchema } from '@intake/shared/form-shape';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import type addFormats from 'ajv-formats';

/** How the body arrived: JSON keeps its types; multipart and urlencoded send every value as text. */
export type BodyKind = 'json' | 'text';

export interface FormShape {
  /**
   * The fields as the shape takes them (undeclared ones dropped when the form drops them, form
   * bodies' text turned into numbers, booleans and lists), or `fields_invalid`. `exempt` names keys
   * the form reads besides its fields (honeypots, the CAPTCHA answer): never refused nor dropped.
   */
  check(fields: Record<string, unknown>, kind: BodyKind, exempt: readonly string[]): Record<string, unknown>;
}

const require = createRequire(import.meta.url);

function makeAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = require('ajv') as { Ajv: typeof Ajv };
  const formats = require('ajv-formats') as typeof addFormats;
  const ajv = new AjvClass({ allErrors: true, strict: true, ...options });
  formats.default(ajv, ['email']);
  return ajv;
}

type Validators = Record<BodyKind, Record<'refuse' | 'drop', Ajv>>;

// ajv's options are per instance: one per way of reading a body and of treating undeclared fields.
// `coerceTypes: 'array'` reads "42", "true" and a single value of a list as a form sends them.
// Made (and ajv loaded, synchronously as compiling is) for the first form with a shape: a gateway
// whose forms declare none never loads ajv.
let validators: Validators | undefined;

function validatorsFor(): Validators {
  validators ??= {
    json: { refuse: makeAjv({}), drop: makeAjv({ removeAdditional: true }) },
    text: {
      refuse: makeAjv({ coerceTypes: 'array' }),
      drop: makeAjv({ coerceTypes: 'array', removeAdditional: true }),
    },
  };
  return validators;
}

const TYPE_REASONS: Record<string, string> = {
  string: 'must be text',
  number: 'must be a number',
  boolean: 'must be true or false',
  array: 'must be a list of text',
};

function reasonOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of this form';
    case 'type':
      return TYPE_REASONS[String(error.params.type)] ?? 'has the wrong type';
    case 'maxLength':
      return `is longer than ${String(error.params.limit)} characters`;
    case 'minLength':
    case 'minItems':
      return 'must not be empty';
    case 'format':
      return 'must be an e-mail address';
    case 'enum':
      return 'is not one of the choices';
    default:
      return 'is not valid';
  }
}

/** The field path (shared/src/field-path) of an ajv error: a JSON pointer, plus the key it names. */
function pathOf(error: ErrorObject): string {
  const pointer = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/');
  const segments: (string | number)[] = pointer.map((segment, position) => {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    // Only a list's items sit below a field, so every segment after the first is a position.
    return position > 0 && /^\d+$/.test(key) ? Number(key) : key;
  });
  if (error.keyword === 'required') {
    segments.push(String(error.params.missingProperty));
  } else if (error.keyword === 'additionalProperties') {
    segments.push(String(error.params.additionalProperty));
  }
  return fieldPath(segments);
}

/** Every failing field once with its first reason: declared fields in their order, then undeclared ones. */
function problemsOf(errors: readonly ErrorObject[], schema: FormJsonSchema): FieldProblem[] {
  const order = Object.keys(schema.properties);
  const byPath = new Map<string, { reason: string; rank: number }>();
  for (const [position, error] of errors.entries()) {
    const path = pathOf(error);
    if (!byPath.has(path)) {
      const declared = order.indexOf(topLevelKey(error));
      byPath.set(path, { reason: reasonOf(error), rank: declared === -1 ? order.length + position : declared });
    }
  }
  return [...byPath].sort(([, a], [, b]) => a.rank - b.rank).map(([path, { reason }]) => ({ path, reason }));
}

/** The top-level field an error is about. */
function topLevelKey(error: ErrorObject): string {
  if (error.instancePath !== '') {
    return error.instancePath.slice(1).split('/')[0]!.replaceAll('~1', '/').replaceAll('~0', '~');
  }
  return String(error.params.missingProperty ?? error.params.additionalProperty ?? '');
}

/**
 * What an HTML form sends for a declared number, boolean or list that is not text: an empty input
 * is no answer, and a checked checkbox says `on`.
 */
function fromFormText(fields: Record<string, unknown>, schema: FormJsonSchema): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const declared = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    const type = declared?.type;
    if ((type === 'number' || type === 'boolean') && value === '') {
      continue;
    }
    result[key] = type === 'boolean' && value === 'on' ? true : value;
  }
  return result;
}

export function compileFormShape(schema: FormJsonSchema, unknownFields: 'refuse' | 'drop'): FormShape {
  const compiled: Partial<Record<BodyKind, ValidateFunction>> = {};
  const validatorFor = (kind: BodyKind) => (compiled[kind] ??= validatorsFor()[kind][unknownFields].compile(schema));
  return {
    check(fields, kind, exempt) {
      const checked: Record<string, unknown> = kind === 'text' ? fromFormText(fields, schema) : { ...fields };
      const kept: Record<string, unknown> = {};
      for (const key of exempt) {
        if (Object.hasOwn(checked, key) && !Object.hasOwn(schema.properties, key)) {
          kept[key] = checked[key];
          delete checked[key];
        }
      }
      const validate = validatorFor(kind);
      if (!validate(checked)) {
        const errors = problemsOf(validate.errors ?? [], schema);
        const count = errors.length === 1 ? 'One field does' : `${errors.length} fields do`;
        throw new AppError('fields_invalid', `${count} not match the form's declared fields.`, { errors });
      }
      return { ...checked, ...kept };
    },
  };
}

/** The form's compiled shape, or null when it declares none (every key is accepted). */
export function formShapeOf(form: Form): FormShape | null {
  const schema = form.fieldsSchema ?? null;
  return schema === null ? null : compileFormShape(schema, form.unknownFields ?? 'refuse');
}
