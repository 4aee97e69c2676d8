import multer from '@koa/multer';
import { AppError } from '@intake/shared/errors';
import type { IntakeContext } from '../context.js';
import type { ReceivedFile } from '../files/types.js';
import type { BodyLimits } from './limits.js';
import { MAX_FIELDS, MAX_STRING_BYTES } from './limits.js';
import { MAX_FIELD_NESTING } from './field-name.js';
import { createUploadStorage, toReceivedFile, type UploadedFile } from './upload-storage.js';

const TOO_LARGE = new Set(['LIMIT_FILE_SIZE', 'LIMIT_FILE_COUNT', 'LIMIT_PART_COUNT', 'LIMIT_FIELD_COUNT']);

function multerFailure(error: unknown, limits: BodyLimits): AppError {
  if (error instanceof AppError) {
    return error;
  }
  const code = (error as { code?: string }).code ?? '';
  if (code === 'LIMIT_FILE_SIZE') {
    return new AppError('payload_too_large', `A file is larger than ${limits.maxFileSize} bytes.`);
  }
  if (code === 'LIMIT_FILE_COUNT') {
    return new AppError('payload_too_large', `More than ${limits.maxFiles} files.`);
  }
  if (TOO_LARGE.has(code)) {
    return new AppError('payload_too_large', 'The form has too many parts.');
  }
  if (code === 'LIMIT_FIELD_VALUE') {
    return new AppError('body_invalid', 'A string is longer than 64 KiB.');
  }
  if (code === 'LIMIT_FIELD_NESTING') {
    return new AppError('body_invalid', 'A field name nests deeper than 8 levels.');
  }
  // Busboy's parse errors (bad boundary, truncated part, bad headers) and multer's field-name
  // errors: the request is malformed. Their messages may quote request bytes, so none is echoed.
  return new AppError('body_invalid', 'The multipart body is malformed.');
}

function multerLimits(limits: BodyLimits): multer.Options['limits'] {
  // fieldNestingDepth and fieldArrayIndexLimit are multer 2 options the type package lacks.
  const all = {
    fileSize: limits.maxFileSize,
    files: limits.maxFiles,
    fieldSize: MAX_STRING_BYTES,
    fields: MAX_FIELDS,
    parts: MAX_FIELDS + limits.maxFiles,
    fieldNameSize: 1024,
    fieldNestingDepth: MAX_FIELD_NESTING,
    fieldArrayIndexLimit: MAX_FIELDS - 1,
  };
  return all;
}

/**
 * Fails the upload as soon as the whole body passes MAX_BODY_SIZE, whatever Content-Length said:
 * an error on the request stream makes multer stop parsing and remove what it stored.
 */
function capRequestBytes(ctx: IntakeContext, limit: number): () => void {
  let received = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) {
      ctx.req.off('data', onData);
      ctx.set('Connection', 'close');
      ctx.req.emit('error', new AppError('payload_too_large', `The body is larger than ${limit} bytes.`));
    }
  };
  ctx.req.on('data', onData);
  return () => ctx.req.off('data', onData);
}

/**
 * A multipart/form-data body through @koa/multer: files streamed to temporary files (paths pushed
 * to `created` for cleanup), fields parsed by multer (a repeated field becomes an array).
 */
export async function parseMultipartBody(
  ctx: IntakeContext,
  limits: BodyLimits,
  created: string[],
): Promise<{ fields: Record<string, unknown>; files: ReceivedFile[] }> {
  const uploads = createUploadStorage(limits.tempDir, created);
  const options = {
    storage: uploads.engine,
    // Browsers send file names as raw UTF-8; multer's default would read them as latin1.
    defParamCharset: 'utf8',
    limits: multerLimits(limits),
  };
  const upload = multer(options);
  const release = capRequestBytes(ctx, limits.maxBodySize);
  try {
    await upload.any()(ctx as never, async () => {});
  } catch (error) {
    await uploads.abort();
    throw multerFailure(error, limits);
  } finally {
    release();
  }
  const fields = (ctx.request as { body?: Record<string, unknown> }).body;
  if (fields === undefined) {
    // multer passes over a body whose Content-Type it cannot parse (say, an unquoted boundary
    // holding `/`, `?` or `:`) without reading it: accepting that would store an empty submission
    // and drop every field and file that was sent.
    throw new AppError('body_invalid', 'The multipart Content-Type header is malformed.');
  }
  const files = ((ctx.request as { files?: UploadedFile[] }).files ?? []).map(toReceivedFile);
  return { fields, files };
}
