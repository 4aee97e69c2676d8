import type { IntakeMiddleware } from '../context.js';
import { isFull } from '../submission/capacity.js';
import { fullRefusal, scheduleRefusal } from '../submission/form-limits.js';

/**
 * Refuses a post to a form outside its schedule, or whose cap is already reached, with
 * `form_closed` before the body is read. A replay of a submission accepted earlier is still
 * answered with it (the submission command does).
 */
export const formOpen: IntakeMiddleware = async (ctx, next) => {
  const form = ctx.state.form!;
  if (!ctx.state.idempotency?.replay) {
    const refusal = scheduleRefusal(form, new Date());
    if (refusal !== null) {
      throw refusal;
    }
    if (form.maxSubmissions != null && (await isFull(ctx.state.em, form.id, form.maxSubmissions))) {
      throw fullRefusal();
    }
  }
  await next();
};
