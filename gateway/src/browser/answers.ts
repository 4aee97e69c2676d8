// How a browser post is answered (docs/static-sites.md): a form the browser sent by itself is sent
// on with 303 to its thank-you address, or shown a small refusal page; a post sent by a script gets
// JSON, as a site backend does, with the thank-you address added. The thank-you address is always
// one the form's settings name (or Intake's own page): nothing in the request can choose another.
import { BROWSER_PATHS, browserTextsOf } from '@intake/shared/browser-posting';
import type { Form } from '@intake/shared/entities';
import { toProblem } from '@intake/shared/errors';
import { normaliseThankYouUrl } from '@intake/shared/input-fields';
import { toServiceError } from '@intake/shared/outage';
import { configuredGatewayOrigin } from '@intake/shared/public-urls';
import type { IntakeContext, IntakeMiddleware } from '../context.js';
import type { SubmissionAnswer } from '../submission/present-submission.js';
import { isBrowserPost, isNavigation, requestOrigin } from './browser-post.js';
import { refusalPage, sendPage } from './pages.js';

/**
 * This gateway as links to it are written: its configured public origin (PUBLIC_GATEWAY_URL, else
 * following PUBLIC_URL), else nothing (a path, which the browser resolves against the address it
 * reached). Never the request's Host header, which a client writes.
 */
export function gatewayOrigin(ctx: IntakeContext): string {
  return configuredGatewayOrigin(ctx.services.config) ?? '';
}

/**
 * Where a browser goes after an accepted post: the address `_next` named when it is exactly one of
 * the form's thank-you addresses, else the first of them, else Intake's thank-you page with the
 * receipt.
 */
export function thankYouAddress(
  ctx: IntakeContext,
  form: Pick<Form, 'code' | 'browserThankYouUrls'>,
  next: string | undefined,
  answer: SubmissionAnswer,
): string {
  const listed = form.browserThankYouUrls ?? [];
  const asked = next === undefined ? null : normaliseThankYouUrl(next);
  if (asked !== null && listed.includes(asked)) {
    return asked;
  }
  if (listed.length > 0) {
    return listed[0]!;
  }
  const receipt = answer.receipt === undefined ? '' : `?receipt=${encodeURIComponent(answer.receipt)}`;
  return `${gatewayOrigin(ctx)}${BROWSER_PATHS.thanks(form.code)}${receipt}`;
}

/**
 * The answer to an accepted browser post: 303 for the browser itself, 201 JSON for a script (whose
 * `thankYouUrl` may be a path on this gateway: resolve it against the form's action).
 */
export function answerAccepted(ctx: IntakeContext, answer: SubmissionAnswer, thankYou: string): void {
  if (ctx.state.browser?.navigation) {
    ctx.status = 303;
    ctx.redirect(thankYou);
    return;
  }
  ctx.status = 201;
  ctx.body = { ...answer, thankYouUrl: thankYou };
}

/** The page the form was on, for the refusal page's back link: only on one of the form's origins. */
function backLink(ctx: IntakeContext): string | null {
  const origin = ctx.state.browser?.origin;
  const referer = ctx.get('Referer');
  if (origin === undefined || referer === '' || requestOrigin(ctx) !== origin) {
    return null;
  }
  try {
    const url = new URL(referer);
    return url.origin === origin ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Refusals of a browser's own form post as a page (the same status and words as the problem
 * document); everything else goes on to the JSON error handler.
 */
export const browserRefusalPages: IntakeMiddleware = async (ctx, next) => {
  try {
    await next();
  } catch (caught) {
    if (!isBrowserPost(ctx) || !isNavigation(ctx)) {
      throw caught;
    }
    const error = toServiceError(caught);
    const problem = toProblem(error);
    if (problem.code === 'internal_error') {
      // The error handler logs it; the visitor gets the page.
      ctx.services.logger.error({ err: error, requestId: ctx.state.requestId }, 'unhandled error');
    }
    const texts = browserTextsOf(ctx.state.form ?? {});
    ctx.state.pageRefusal = problem.code;
    sendPage(
      ctx,
      problem.status,
      refusalPage({ texts, detail: problem.detail, errors: problem.errors, back: backLink(ctx) }),
    );
    ctx.set('Connection', 'close');
    const retryAfter = (error as { retryAfter?: number }).retryAfter;
    if (retryAfter !== undefined) {
      ctx.set('Retry-After', String(retryAfter));
    }
  }
};
