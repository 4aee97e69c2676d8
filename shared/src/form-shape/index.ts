// A form's declared shape (docs/form-fields.md): the fields it takes, each with a type, whether it is
// required, a maximum length and, for a choice, its choices; and what becomes of a field it does not
// declare. The admin API takes and shows the typed list; the database stores it as the JSON Schema the
// gateway compiles with ajv, so the stored document is what is enforced. A form without a shape (null)
// accepts every key, as before shapes existed.

export const FIELD_TYPES = ['text', 'email', 'number', 'boolean', 'choice', 'list'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const UNKNOWN_FIELD_POLICIES = ['refuse', 'drop'] as const;
/** `refuse`: a submission with an undeclared field is `fields_invalid`; `drop`: such fields are not stored. */
export type UnknownFieldPolicy = (typeof UNKNOWN_FIELD_POLICIES)[number];

/** The types whose values are free text, and so may have a maximum length (per item for a list). */
export const LENGTH_TYPES: ReadonlySet<FieldType> = new Set(['text', 'email', 'list']);
// Most fields a form may declare, most choices and the longest one, the longest maximum length.
export { CHOICE_MAX_LENGTH, CHOICES_MAX, DECLARED_FIELDS_MAX, FIELD_MAX_LENGTH_MAX } from '@intake/contract';

export interface DeclaredField {
  name: string;
  type: FieldType;
  required: boolean;
  /** Characters (per item for a list); null: only the gateway's 64 KiB string limit. */
  maxLength: number | null;
  /** The accepted values of a `choice`; null for every other type. */
  choices: string[] | null;
}

type JsonSchema = Record<string, unknown>;

/** What the `fields_schema` column holds: a JSON Schema document with its properties in field order. */
export interface FormJsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
  additionalProperties: false;
}

function valueSchema(field: DeclaredField): JsonSchema {
  const length = field.maxLength === null ? {} : { maxLength: field.maxLength };
  // A required text must hold something: an empty input of an HTML form is sent as "".
  const nonEmpty = field.required ? { minLength: 1 } : {};
  switch (field.type) {
    case 'text':
      return { type: 'string', ...nonEmpty, ...length };
    case 'email':
      return { type: 'string', format: 'email', ...length };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'choice':
      return { type: 'string', enum: [...(field.choices ?? [])] };
    case 'list':
      return { type: 'array', ...(field.required ? { minItems: 1 } : {}), items: { type: 'string', ...length } };
  }
}

/** The JSON Schema of declared fields, properties in their order (the column is `json`, which keeps it). */
export function toJsonSchema(fields: readonly DeclaredField[]): FormJsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    properties[field.name] = valueSchema(field);
  }
  return {
    type: 'object',
    properties,
    required: fields.filter((field) => field.required).map((field) => field.name),
    additionalProperties: false,
  };
}

function typeOf(schema: JsonSchema): FieldType {
  if (schema.type === 'array') {
    return 'list';
  }
  if (schema.type === 'number' || schema.type === 'boolean') {
    return schema.type;
  }
  if (Array.isArray(schema.enum)) {
    return 'choice';
  }
  return schema.format === 'email' ? 'email' : 'text';
}

/** The declared fields a stored JSON Schema was made from, in order. */
export function fromJsonSchema(schema: FormJsonSchema): DeclaredField[] {
  const required = new Set(schema.required);
  return Object.entries(schema.properties).map(([name, property]) => {
    const type = typeOf(property);
    const lengthOf = (type === 'list' ? property.items : property) as JsonSchema;
    return {
      name,
      type,
      required: required.has(name),
      maxLength: typeof lengthOf.maxLength === 'number' ? lengthOf.maxLength : null,
      choices: type === 'choice' ? [...(property.enum as string[])] : null,
    };
  });
}
