import type { IntakeMiddleware } from '../context.js';
import { scheduleRefusal } from '../submission/form-limits.js';

/**
 * Refuses a post to a form outside its schedule with `form_closed` before the body is read. A
 * replay of a submission accepted earlier is still answered with it (the submission command does).
 */
export const formOpen: IntakeMiddleware = async (ctx, next) => {
  const refusal = ctx.state.idempotency?.replay ? null : scheduleRefusal(ctx.state.form!, new Date());
  if (refusal !== null) {
    throw refusal;
  }
  await next();
};
