import { AppError, SiteSchema, isSiteTokenError, verifySiteToken } from '@intake/shared';
import type { Next } from 'koa';
import type { IntakeContext } from '../context.js';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** Verifies the site token of `Authorization: Bearer …` and puts its site on the state. */
export async function siteToken(ctx: IntakeContext, next: Next): Promise<void> {
  const match = BEARER.exec(ctx.get('Authorization'));
  if (!match?.[1]) {
    throw new AppError('token_missing', 'An Authorization: Bearer <site token> header is required.');
  }
  let verification;
  try {
    verification = await verifySiteToken(ctx.services.siteTokens, match[1], (id) =>
      ctx.state.em.findOne(SiteSchema, { id }),
    );
  } catch (error) {
    if (isSiteTokenError(error)) {
      throw new AppError('token_invalid', 'The site token is not valid.');
    }
    throw error;
  }
  if (!verification.ok) {
    throw new AppError('token_invalid', 'The site token is not valid.');
  }
  ctx.state.site = verification.site;
  await next();
}
