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
