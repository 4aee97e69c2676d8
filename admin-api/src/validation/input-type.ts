// One declaration per admin input. Each field of an input class names its GraphQL type and its zod
// schema together (`@InputField`); `@InputArg` declares the argument and hands the resolver what
// those schemas make of it (trimmed, lower-cased, deduplicated), or BAD_USER_INPUT naming the
// field. type-graphql's validation hook (`validateFn`) is not used for this: it may refuse an
// argument but not replace it, and the schemas normalise. A nullable GraphQL field may be left out,
// so the schema of a `nullable` field is made optional here rather than at every field.
import type { Config } from '@intake/shared/config';
import { createParameterDecorator, Field, type FieldOptions } from 'type-graphql';
import { z } from 'zod';
import type { AdminContext } from '../context.js';
import { parseInput } from './parse-input.js';

/** What names a field's GraphQL type, as `@Field` takes it. */
type ReturnTypeFunc = Parameters<typeof Field>[0] & (() => unknown);

/** A field's schema, or one made from the configuration (MAX_FILE_SIZE, private webhook addresses). */
export type FieldSchema<Output> = z.ZodType<Output> | ((config: Config) => z.ZodType<Output>);

interface DeclaredField {
  schema: FieldSchema<unknown>;
  optional: boolean;
}

const declaredFields = new WeakMap<object, Map<string, DeclaredField>>();

/** `unknown` when the property's type is what the schema gives (absent aside), `never` otherwise. */
type SameAs<Property, Output> = [Output] extends [Property]
  ? [Exclude<Property, undefined>] extends [Output]
    ? unknown
    : never
  : never;

/**
 * A field of an input class: its GraphQL type and options, and the schema that checks it. The
 * property is typed as the checked value, and the compiler holds the two together.
 */
export function InputField<Output>(typeFunc: ReturnTypeFunc, schema: FieldSchema<Output>, options: FieldOptions = {}) {
  return <Key extends string, Input extends { [K in Key]?: unknown }>(
    prototype: Input & SameAs<Input[Key], Output>,
    key: Key,
  ): void => {
    Field(typeFunc, options)(prototype, key);
    const fields = declaredFields.get(prototype) ?? new Map<string, DeclaredField>();
    fields.set(key, { schema, optional: options.nullable === true });
    declaredFields.set(prototype, fields);
  };
}

/** The fields an input class declares, with those of the classes it extends (their own first). */
function fieldsOf(inputClass: abstract new () => object): Map<string, DeclaredField> {
  const fields = new Map<string, DeclaredField>();
  const chain: object[] = [];
  for (let prototype: object | null = inputClass.prototype; prototype; prototype = Object.getPrototypeOf(prototype)) {
    chain.unshift(prototype);
  }
  for (const prototype of chain) {
    for (const [key, field] of declaredFields.get(prototype) ?? []) {
      fields.set(key, field);
    }
  }
  return fields;
}

/** The zod schema of an input class: its declared fields, nothing else (unknown keys are dropped). */
export function inputSchema(inputClass: abstract new () => object, config: Config) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, { schema, optional }] of fieldsOf(inputClass)) {
    const fieldSchema = typeof schema === 'function' ? schema(config) : schema;
    shape[key] = optional ? fieldSchema.optional() : fieldSchema;
  }
  return z.object(shape);
}

/**
 * The argument `name` of an input class, handed to the resolver checked and normalised; with
 * `nullable`, the argument may be left out or null, and the resolver gets null.
 */
export function InputArg(name: string, inputClass: abstract new () => object, { nullable = false } = {}) {
  return createParameterDecorator<AdminContext>(
    ({ args, context }) => {
      const schema = inputSchema(inputClass, context.deps.services.config);
      return parseInput(nullable ? schema.nullish().transform((value) => value ?? null) : schema, args[name], name);
    },
    { arg: { name, typeFunc: () => inputClass, options: { nullable } } },
  );
}
