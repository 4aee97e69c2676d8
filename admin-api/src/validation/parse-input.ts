// Every argument of the admin API is declared as a zod schema (as the configuration is): one schema
// per input, whose first problem becomes a BAD_USER_INPUT error naming the field (`input.name`).
import type { z } from 'zod';
import { badUserInput } from '../errors.js';

/** The value as the schema normalises it, or a BAD_USER_INPUT error for its first problem. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, field: string): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) {
    return result.data;
  }
  const [issue] = result.error.issues;
  const path = [field, ...(issue?.path ?? []).map(String)].join('.');
  throw badUserInput(path, issue?.message ?? 'is not valid');
}
