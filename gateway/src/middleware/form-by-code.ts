import { AppError, FormSchema } from '@intake/shared';
import type { Next } from 'koa';
import type { IntakeContext } from '../context.js';

const FORM_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** Finds the enabled form of the URL's code that belongs to the token's site. */
export async function formByCode(ctx: IntakeContext, next: Next): Promise<void> {
  const code = String(ctx.params?.code ?? '');
  const site = ctx.state.site;
  const form =
    site && FORM_CODE.test(code)
      ? await ctx.state.em.findOne(FormSchema, { code, deletedAt: null, site: site.id })
      : null;
  // One answer for "no such form", "another site's form" and "disabled": a caller learns nothing.
  if (!form || !form.enabled) {
    throw new AppError('form_forbidden', 'This form does not accept submissions with these credentials.');
  }
  ctx.state.form = form;
  await next();
}
