import appendField from 'append-field';
import type { IntakeContext } from '../context.js';
import { AppError } from '@intake/shared/errors';
import { checkFieldName } from './field-name.js';
import { isPlainlyJson, JSON_CONTENT_TYPE_HINT } from './json-body.js';
import { MAX_FIELDS } from './limits.js';
import { readTextBody } from './read-raw.js';

/**
 * Counts the fields of an urlencoded text (`&`-separated, empty pieces skipped as URLSearchParams
 * skips them) without building any: URLSearchParams builds every pair before the first can be
 * counted, which for a large body of names without `=` took minutes of blocked event loop.
 */
function checkFieldCount(text: string): void {
  let count = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) {
      end = text.length;
    }
    if (end > start && ++count > MAX_FIELDS) {
      throw new AppError('payload_too_large', `More than ${MAX_FIELDS} fields.`);
    }
    start = end + 1;
  }
}

/**
 * An application/x-www-form-urlencoded body, with the same field semantics as multipart (multer's
 * append-field): a repeated field becomes an array and bracket names (`a[b]`, `a[]`) nest.
 */
export async function parseUrlencodedBody(ctx: IntakeContext, limit: number): Promise<Record<string, unknown>> {
  const text = await readTextBody(ctx, limit);
  if (isPlainlyJson(text)) {
    throw new AppError(
      'unsupported_media_type',
      `The body is JSON sent as application/x-www-form-urlencoded (curl -d does so). ${JSON_CONTENT_TYPE_HINT}`,
    );
  }
  checkFieldCount(text);
  const body: Record<string, unknown> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    checkFieldName(name);
    appendField(body, name, value);
  }
  return body;
}
