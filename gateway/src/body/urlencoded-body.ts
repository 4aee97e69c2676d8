import appendField from 'append-field';
import type { IntakeContext } from '../context.js';
import { AppError } from '@intake/shared';
import { checkFieldName } from './field-name.js';
import { MAX_FIELDS } from './limits.js';
import { readTextBody } from './read-raw.js';

/**
 * An application/x-www-form-urlencoded body, with the same field semantics as multipart (multer's
 * append-field): a repeated field becomes an array and bracket names (`a[b]`, `a[]`) nest.
 */
export async function parseUrlencodedBody(ctx: IntakeContext, limit: number): Promise<Record<string, unknown>> {
  const text = await readTextBody(ctx, limit);
  const body: Record<string, unknown> = Object.create(null);
  let count = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++count > MAX_FIELDS) {
      throw new AppError('payload_too_large', `More than ${MAX_FIELDS} fields.`);
    }
    checkFieldName(name);
    appendField(body, name, value);
  }
  return body;
}
