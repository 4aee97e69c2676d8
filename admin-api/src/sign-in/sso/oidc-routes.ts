// GET /auth/oidc/start and GET /auth/oidc/callback: single sign-on through the organisation's OpenID
// provider (docs/single-sign-on.md). Every outcome is a redirect, never an error page: to the console
// once signed in, else to `/sign-in?error=<code>`, which words the reason. Each callback counts as a
// sign-in attempt of the address first (a sign-in gives it back); within the limit it is in the audit
// log (`login`, method `oidc`) with its reason code when refused, past it nothing is written. The
// code, the tokens and the provider's messages are in no log line and no entry.
import { recordAuditEntry, type AuditActor } from '@intake/shared/audit';
import { SIGN_IN_PATH, safeReturnPath } from '@intake/shared/return-path';
import type { Services } from '@intake/shared/services';
import { ANONYMOUS } from '../../lib/audit-actor.js';
import { endSession } from '../../access/admin-sessions.js';
import { sessionCookie } from '../sessions/session-cookie.js';
import { loginAttemptKeys } from '../password/login.js';
import { ssoSignIn } from './sso-sign-in.js';
import type { AdminDeps } from '../../context.js';
import type { AdminKoaContext } from '../../koa-context.js';
import { findAdminByEmail } from '../../access/find-admin.js';
import type { SsoIdentity } from './oidc-client.js';
import { secondFactorCookie } from './second-factor-cookie.js';
import { failureOfLibraryError, SsoSignInError, type SsoFailure } from './sign-in-failure.js';
import type { SsoDeps } from './sso-deps.js';

function refuse(ctx: AdminKoaContext, reason: SsoFailure): void {
  ctx.status = 303;
  ctx.redirect(`${SIGN_IN_PATH}?error=${reason}`);
}

/**
 * The session cookie is SameSite=Strict, and the navigation that reaches the callback started at the
 * provider's site: a redirect from here would still count as cross-site, and the browser would not
 * send the new cookie to the console. A page of this origin that moves on by itself makes the next
 * navigation same-site (a meta refresh: the console's Content-Security-Policy allows no inline script).
 */
function continueTo(ctx: AdminKoaContext, path: string): void {
  const href = path.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  ctx.status = 200;
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><link rel="icon" href="data:,"><title>Signed in · Intake console</title></head><body><p>Signed in. <a href="${href}">Continue to the console</a>.</p></body></html>`;
}

export function startSso(services: Services, sso: SsoDeps | null) {
  return async (ctx: AdminKoaContext): Promise<void> => {
    ctx.set('Cache-Control', 'no-store');
    if (sso === null) {
      refuse(ctx, 'sso_not_configured');
      return;
    }
    let begun: Awaited<ReturnType<SsoDeps['client']['begin']>>;
    try {
      begun = await sso.client.begin(safeReturnPath(ctx.query.next));
    } catch (error) {
      // Discovery failed: the provider is down, or OIDC_ISSUER_URL is wrong. Its name and code only.
      services.logger.warn(
        {
          requestId: ctx.state.requestId,
          errorName: (error as Error).name,
          errorCode: (error as { code?: unknown }).code,
        },
        'single sign-on: provider unavailable',
      );
      refuse(ctx, 'sso_provider_unavailable');
      return;
    }
    sso.flowCookies.write(ctx, begun.flow);
    ctx.status = 303;
    ctx.redirect(begun.url.href);
  };
}

export function finishSso(deps: AdminDeps) {
  const { services, sso } = deps;
  return async (ctx: AdminKoaContext): Promise<void> => {
    ctx.set('Cache-Control', 'no-store');
    const { logger, config } = services;
    const requestId = ctx.state.requestId;
    const { address } = loginAttemptKeys('', ctx.ip);
    const em = services.db.em.fork();
    /** Whether the entry was written: no sign-in goes ahead without its entry. */
    const audit = async (
      actor: AuditActor,
      failure: string | null,
      details: Record<string, string> = {},
    ): Promise<boolean> => {
      try {
        await recordAuditEntry(em.fork(), services.auditChain, {
          actor,
          action: 'login',
          objectType: actor.id ? 'AdminUser' : null,
          objectId: actor.id ?? null,
          details: { method: 'oidc', ...details },
          outcome: failure === null ? 'success' : 'failure',
          errorCode: failure,
          address: ctx.ip,
          requestId,
        });
        return true;
      } catch (error) {
        // Its name and code only: a database error's detail can quote the row.
        logger.error(
          {
            requestId,
            action: 'login',
            errorName: (error as Error).name,
            errorCode: (error as { code?: unknown }).code,
          },
          'audit entry not written',
        );
        return false;
      }
    };
    const fail = async (reason: SsoFailure, identity?: SsoIdentity) => {
      // An unknown person's e-mail is kept (it says who tried); nothing the provider sent beside it.
      const member = identity === undefined ? null : await findAdminByEmail(em, identity.email).catch(() => null);
      const actor: AuditActor =
        identity === undefined || identity.email === ''
          ? ANONYMOUS
          : { kind: 'anonymous', id: member?.id ?? null, name: member?.email ?? identity.email };
      logger.info({ requestId, reason }, 'single sign-on refused');
      await audit(actor, reason);
      refuse(ctx, reason);
    };

    if (sso === null) {
      refuse(ctx, 'sso_not_configured');
      return;
    }
    // Before anything is written: each entry below takes the audit chain's lock.
    const decision = await deps.loginAttempts.consume([address]);
    if (!decision.allowed) {
      logger.warn({ requestId, clientAddress: ctx.ip }, 'single sign-on refused: too many attempts');
      refuse(ctx, 'sso_rate_limited');
      return;
    }
    const flow = sso.flowCookies.read(ctx);
    // One callback per attempt: the flow cookie goes whatever happens next.
    sso.flowCookies.clear(ctx);
    if (flow === null || ctx.query.state !== flow.state) {
      await fail('sso_state_mismatch');
      return;
    }
    let identity: SsoIdentity;
    try {
      identity = await sso.client.finish(ctx.querystring, flow);
    } catch (error) {
      const reason = failureOfLibraryError(error);
      if (reason === 'sso_provider_unavailable') {
        logger.warn(
          { requestId, errorName: (error as Error).name, errorCode: (error as { code?: unknown }).code },
          'single sign-on: provider answer unusable',
        );
      }
      await fail(reason);
      return;
    }
    let signedIn: Awaited<ReturnType<typeof ssoSignIn>>;
    try {
      signedIn = await ssoSignIn(em, sso.settings, identity, config.adminTokenTtlSeconds);
    } catch (error) {
      if (error instanceof SsoSignInError) {
        await fail(error.reason, identity);
        return;
      }
      throw error;
    }
    const { member, joined, outcome } = signedIn;
    const details: Record<string, string> = joined === null ? {} : { joined };
    if (outcome.kind === 'second-factor') {
      // As after a right password: the attempt stays counted until the second factor is right too.
      if (!(await audit({ kind: 'anonymous', id: member.id, name: member.email }, 'SECOND_FACTOR_REQUIRED', details))) {
        // The challenge is useless without the cookie that carries it, which is not set.
        refuse(ctx, 'sso_not_recorded');
        return;
      }
      secondFactorCookie(ctx, config).set(outcome.challenge.challenge, outcome.challenge.expiresAt);
      logger.info({ requestId }, 'single sign-on: second factor required');
      continueTo(ctx, `${SIGN_IN_PATH}?second-factor=sso&next=${encodeURIComponent(flow.next)}`);
      return;
    }
    if (!(await audit({ kind: 'admin', id: member.id, name: member.email }, null, details))) {
      await endSession(em, outcome.session.secret);
      refuse(ctx, 'sso_not_recorded');
      return;
    }
    await deps.loginAttempts.release(address);
    sessionCookie(ctx, config).set(outcome.session.secret, outcome.session.expiresAt);
    logger.info({ requestId }, 'single sign-on: signed in');
    continueTo(ctx, flow.next);
  };
}
