import { isAppError } from '@intake/shared/errors';
import type { IntakeMiddleware } from '../context.js';
import { findReplay, readIdempotencyKey } from '../submission/idempotency.js';

/**
 * Reads the Idempotency-Key header and looks up the first answer given for it, once per request:
 * the site rate limit lets a replay through for free and the submission command answers it, both
 * from `ctx.state.idempotency`. A malformed key is kept as a refusal for the handler to throw, so it
 * is refused where the contract orders it (with the other `body_invalid` checks, after the body).
 */
export const idempotencyKey: IntakeMiddleware = async (ctx, next) => {
  let key: string | undefined;
  try {
    key = readIdempotencyKey(ctx.get('Idempotency-Key'));
  } catch (error) {
    if (!isAppError(error)) {
      throw error;
    }
    ctx.state.idempotency = { refusal: error };
    await next();
    return;
  }
  const replay = key === undefined ? undefined : await findReplay(ctx.state.em, ctx.state.form!, key);
  ctx.state.idempotency = { key, replay };
  await next();
};
