import { AppError } from '@intake/shared/errors';
import type { IntakeContext } from '../context.js';
import { checkJsonShape } from './json-shape.js';
import { readTextBody } from './read-raw.js';

/** A JSON body: any JSON value here; the caller checks that it is an object. */
export async function parseJsonBody(ctx: IntakeContext, limit: number): Promise<unknown> {
  const text = await readTextBody(ctx, limit);
  checkJsonShape(text);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('body_invalid', 'The body is not valid JSON.');
  }
}

/**
 * Whether a body sent as another type plainly is JSON: an object or array that parses (its shape
 * checked first, so parsing stays bounded). `curl -d '{…}'` sends such a body as urlencoded.
 */
export function isPlainlyJson(text: string): boolean {
  const trimmed = text.trim();
  const container =
    (trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'));
  if (!container) {
    return false;
  }
  try {
    checkJsonShape(trimmed);
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** The hint every 415 gives: a JSON body is the usual one sent without its type. */
export const JSON_CONTENT_TYPE_HINT = 'A JSON body needs the header Content-Type: application/json.';
