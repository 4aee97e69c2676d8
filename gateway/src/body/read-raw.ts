import { AppError } from '@intake/shared/errors';
import getRawBody from 'raw-body';
import type { IntakeContext } from '../context.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a whole non-multipart body (bounded by MAX_BODY_SIZE) and decodes it as strict UTF-8.
 * Over the limit is 413 as soon as it is passed; bytes that are not UTF-8 are 400.
 */
export async function readTextBody(ctx: IntakeContext, limit: number): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit, length: ctx.get('Content-Length') || undefined });
  } catch (error) {
    if (error instanceof AppError) {
      throw error;
    }
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') {
      ctx.set('Connection', 'close');
      throw new AppError('payload_too_large', `The body is larger than ${limit} bytes.`);
    }
    throw new AppError('body_invalid', 'The body could not be read.');
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError('body_invalid', 'The body is not valid UTF-8.');
  }
}
