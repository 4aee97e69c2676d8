// What browsers need besides POST /api/v1/send/:code (docs/static-sites.md): its CORS preflight,
// the challenge, Intake's thank-you page with the receipt to download, and the two scripts (the
// ALTCHA widget and the form's enhancement), all served from this gateway's own origin.
import Router from '../koa-router.js';
import { BROWSER_PATHS, browserTextsOf } from '@intake/shared/browser-posting';
import { AppError, isAppError } from '@intake/shared/errors';
import { RECEIPT_TYPE, type ReceiptClaims } from '@intake/shared/receipts';
import type { Services } from '@intake/shared/services';
import type { IntakeCustomContext, IntakeMiddleware, IntakeState } from '../context.js';
import { allowedOrigin, allowOrigin, browserFormOf, countBrowserRequest } from '../browser/browser-post.js';
import { issueChallenge, type ChallengeKeys } from '../browser/challenge.js';
import { gatewayOrigin } from '../browser/answers.js';
import { sendPage, thankYouPage } from '../browser/pages.js';
import type { BrowserAssets } from '../browser/assets.js';
import type { RateLimits } from '../rate-limit/rate-limits.js';
import type { SiteCache } from '../site-cache/site-cache.js';

const forkEntityManager: IntakeMiddleware = async (ctx, next) => {
  ctx.state.em = ctx.services.db.em.fork();
  await next();
};

/** A receipt of this gateway for this form, or null (a bad signature, another form, not a receipt). */
async function verifiedReceipt(services: Services, text: unknown, code: string): Promise<ReceiptClaims | null> {
  if (typeof text !== 'string' || text.length === 0 || text.length > 16_384) {
    return null;
  }
  try {
    const verified = await (await services.signingKeys()).verify(text);
    const claims = verified.payload as ReceiptClaims;
    return verified.type === RECEIPT_TYPE && claims.formCode === code ? claims : null;
  } catch {
    return null;
  }
}

export function browserRouter(
  services: Services,
  siteCache: SiteCache,
  rateLimits: RateLimits,
  keys: ChallengeKeys,
  assets: BrowserAssets,
): Router<IntakeState, IntakeCustomContext> {
  const router = new Router<IntakeState, IntakeCustomContext>();

  // The preflight of a post a script sends as JSON: the listed origin only, never credentials.
  router.options('/api/v1/send/:code', forkEntityManager, async (ctx) => {
    // One answer for "no such form" and "no browser posting": a preflight learns nothing more.
    const { form } = await browserFormOf(ctx, siteCache, String(ctx.params.code)).catch((error: unknown) => {
      throw isAppError(error)
        ? new AppError('origin_not_allowed', 'This form does not take posts from this origin.')
        : error;
    });
    const origin = allowedOrigin(ctx, form);
    allowOrigin(ctx, origin);
    ctx.set('Access-Control-Allow-Methods', 'POST');
    ctx.set('Access-Control-Allow-Headers', 'Content-Type, Accept');
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
  });

  router.get('/api/v1/challenge/:code', forkEntityManager, async (ctx) => {
    const { form } = await browserFormOf(ctx, siteCache, String(ctx.params.code));
    const origin = allowedOrigin(ctx, form);
    allowOrigin(ctx, origin);
    await countBrowserRequest(ctx, rateLimits.browserPosts);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await issueChallenge(keys, form);
  });

  // Intake's thank-you page: what the receipt says, in the form's texts, and the receipt to keep.
  router.get('/api/v1/thanks/:code', forkEntityManager, async (ctx) => {
    const claims = await verifiedReceipt(services, ctx.query.receipt, String(ctx.params.code));
    const found = claims && (await siteCache.formByCodeAlone(() => ctx.state.em, String(ctx.params.code)));
    if (!claims || !found) {
      throw new AppError('not_found', 'No such receipt for this form.');
    }
    const receiptUrl = `${gatewayOrigin(ctx)}${BROWSER_PATHS.thanks(String(ctx.params.code))}/receipt?receipt=${encodeURIComponent(String(ctx.query.receipt))}`;
    sendPage(
      ctx,
      200,
      thankYouPage({ texts: browserTextsOf(found.form), siteName: found.site.name, claims, receiptUrl }),
    );
  });

  router.get('/api/v1/thanks/:code/receipt', async (ctx) => {
    const claims = await verifiedReceipt(services, ctx.query.receipt, String(ctx.params.code));
    if (!claims) {
      throw new AppError('not_found', 'No such receipt for this form.');
    }
    ctx.set(
      'Content-Disposition',
      `attachment; filename="receipt-${claims.submissionId.replace(/[^0-9a-f-]/g, '')}.jws"`,
    );
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/jose';
    ctx.body = String(ctx.query.receipt);
  });

  for (const path of [BROWSER_PATHS.widget, BROWSER_PATHS.script]) {
    router.get(path, (ctx) => assets.serve(ctx, path));
  }
  return router;
}
