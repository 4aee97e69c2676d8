// The steps only a browser post takes (docs/static-sites.md). A browser post is one that carries
// neither X-KEY-SERVICE nor Authorization; a request carrying either is a site backend's and takes
// the credential steps exactly as before. A browser post is authorised by its form alone (browser
// posting on) and the page's origin, then limited per visitor address and per form.
import { browserLimitsOf } from '@intake/shared/browser-posting';
import type { Form } from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { IntakeContext, IntakeMiddleware } from '../context.js';
import { rateLimited, setRateLimitHeaders } from '../rate-limit/rate-limit-headers.js';
import type { SiteCache } from '../site-cache/site-cache.js';

const FORM_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** No credentials at all: the browser path. An empty header counts as none, as it always has. */
export function isBrowserPost(ctx: IntakeContext): boolean {
  return ctx.get('X-KEY-SERVICE') === '' && ctx.get('Authorization') === '';
}

/** A step of the backend path, passed over by browser posts. */
export function backendOnly(step: IntakeMiddleware): IntakeMiddleware {
  return (ctx, next) => (isBrowserPost(ctx) ? next() : step(ctx, next));
}

/** A step of the browser path, passed over by posts with credentials. */
export function browserOnly(step: IntakeMiddleware): IntakeMiddleware {
  return (ctx, next) => (isBrowserPost(ctx) ? step(ctx, next) : next());
}

/**
 * The origin of the page that sent the request: `Origin`, or for browsers that send none on a
 * form post, the origin of `Referer`. Null when neither names one (`Origin: null` included).
 */
export function requestOrigin(ctx: IntakeContext): string | null {
  const origin = ctx.get('Origin');
  if (origin !== '') {
    return origin === 'null' ? null : origin;
  }
  const referer = ctx.get('Referer');
  if (referer === '') {
    return null;
  }
  try {
    const { origin: refererOrigin } = new URL(referer);
    return refererOrigin === 'null' ? null : refererOrigin;
  } catch {
    return null;
  }
}

/** A request a browser sends by itself (a plain form post): it wants a page, not JSON. */
export function isNavigation(ctx: IntakeContext): boolean {
  return ctx.accepts('application/json', 'text/html') === 'text/html';
}

/** The answer for a form without browser posting: what a request without credentials always got. */
function credentialsRequired(): AppError {
  return new AppError(
    'api_key_missing',
    'The X-KEY-SERVICE header is required: without credentials, only a form that takes browser posts accepts one.',
  );
}

/** The form taking browser posts, found by its code alone, or the refusal without credentials. */
export async function browserFormOf(ctx: IntakeContext, siteCache: SiteCache, code: string) {
  const found = FORM_CODE.test(code) ? await siteCache.formByCodeAlone(() => ctx.state.em, code) : null;
  if (!found || !found.form.enabled || !found.form.browserPosting) {
    throw credentialsRequired();
  }
  return found;
}

/** The page's origin when the form lists it, or `origin_not_allowed`. */
export function allowedOrigin(ctx: IntakeContext, form: Pick<Form, 'browserOrigins'>): string {
  const origin = requestOrigin(ctx);
  if (origin === null) {
    throw new AppError('origin_not_allowed', 'The request names no origin (no Origin or Referer header).');
  }
  if (!(form.browserOrigins ?? []).includes(origin)) {
    throw new AppError('origin_not_allowed', `Pages on ${origin.slice(0, 200)} may not post to this form.`);
  }
  return origin;
}

/** CORS for the listed origin: never `*`, never credentials. */
export function allowOrigin(ctx: IntakeContext, origin: string): void {
  ctx.set('Access-Control-Allow-Origin', origin);
  ctx.set(
    'Access-Control-Expose-Headers',
    'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id',
  );
  ctx.vary('Origin');
}

/** The form by code alone, the origin check, then the limits of a browser post on the state. */
export function browserForm(siteCache: SiteCache): IntakeMiddleware {
  return async (ctx, next) => {
    const found = await browserFormOf(ctx, siteCache, String(ctx.params?.code ?? ''));
    const origin = allowedOrigin(ctx, found.form);
    allowOrigin(ctx, origin);
    ctx.state.site = found.site;
    ctx.state.form = found.form;
    ctx.state.webhookIds = found.webhookIds;
    ctx.state.shape = found.shape;
    ctx.state.browser = {
      origin,
      limits: browserLimitsOf(found.form, ctx.services.config),
      navigation: isNavigation(ctx),
    };
    await next();
  };
}

async function consume(ctx: IntakeContext, limiter: RateLimiterAbstract, key: string, detail: string) {
  try {
    const taken = await limiter.consume(key);
    setRateLimitHeaders(ctx, limiter.points, taken);
    return true;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) {
      // Cannot count (it should not happen: Redis falls back to memory): let the request through.
      ctx.services.logger.warn({ err: rejection, requestId: ctx.state.requestId }, 'rate limits: browser count failed');
      return false;
    }
    setRateLimitHeaders(ctx, limiter.points, rejection);
    throw rateLimited(detail, rejection);
  }
}

/**
 * Browser requests per visitor address (every one, refused ones too: each costs the gateway work),
 * and accepted browser posts per form (a point taken before the body, given back unless it ends
 * in 201, as the site limit does). Neither touches the site backend's limits.
 */
export function browserRateLimits(
  perAddress: RateLimiterAbstract | undefined,
  perForm: RateLimiterAbstract | undefined,
): IntakeMiddleware {
  return async (ctx, next) => {
    if (perAddress) {
      await consume(ctx, perAddress, ctx.ip, 'Too many browser posts from this address; retry after the window ends.');
    }
    const formId = ctx.state.form!.id;
    const taken =
      perForm !== undefined &&
      (await consume(ctx, perForm, formId, 'Too many browser posts to this form; retry after the window ends.'));
    let accepted = false;
    try {
      await next();
      accepted = ctx.status === 201 || ctx.status === 303;
    } finally {
      if (taken && !accepted) {
        await perForm.reward(formId).catch((error: unknown) => {
          ctx.services.logger.warn(
            { err: error, requestId: ctx.state.requestId },
            'rate limits: giving a point back failed',
          );
        });
      }
    }
  };
}

/** Counts one browser request of this address (the challenge route). */
export async function countBrowserRequest(ctx: IntakeContext, perAddress: RateLimiterAbstract | undefined) {
  if (perAddress) {
    await consume(ctx, perAddress, ctx.ip, 'Too many browser requests from this address; retry after the window ends.');
  }
}
