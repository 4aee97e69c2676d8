// What every resolver receives. Built once per request by Apollo's context function: its own
// EntityManager fork (no state shared between requests), the request id for logs, and the
// principal, filled in by the auth plugin before execution starts.
import type { Em } from '@intake/shared/db';
import type { Logger } from '@intake/shared/logger';
import type { Services } from '@intake/shared/services';
import type { KoaContextFunctionArgument } from '@as-integrations/koa';
import type { AdminTokens } from './access/admin-token.js';
import type { AttemptLimiter } from './access/attempt-limiter.js';
import type { LoginLimit } from './access/login-policy.js';
import type { Principal } from './access/principal.js';
import type { ProofMethods } from './access/recent-sign-in.js';
import type { SecondFactorKeys } from './sign-in/two-factor/second-factor.js';
import type { AuditNotes } from './lib/audit-notes.js';
import { sessionCookie, type SessionCookie } from './sign-in/sessions/session-cookie.js';
import type { ExportLinks } from './exports/export-link.js';
import type { DownloadLinks } from './lib/download-link.js';
import type { AdminState } from './koa-context.js';
import type { SsoDeps } from './sign-in/sso/sso-deps.js';
import { secondFactorCookie, type SecondFactorCookie } from './sign-in/sso/second-factor-cookie.js';
import type { ExportProcessOptions } from './exports/export-route.js';

/** Built once per app: what resolvers need beyond the shared services. */
export interface AdminDeps {
  services: Services;
  adminTokens: AdminTokens;
  downloadLinks: DownloadLinks;
  /** Signs the links that download a submission export. */
  exportLinks: ExportLinks;
  /** Signs the file links inside an export (EXPORT_DOWNLOAD_URL_TTL_SECONDS). */
  exportFileLinks: DownloadLinks;
  /** On PostgreSQL, how to start an export process; null on PGlite (exports run in this process). */
  exportProcess: ExportProcessOptions | null;
  loginAttempts: AttemptLimiter<LoginLimit>;
  /** Origin of the console as people reach it, for the link being written (http/public-origins.ts). */
  publicOrigin: () => string;
  /**
   * The console's origin for a link e-mailed on an unauthenticated request (a password reset): as
   * configured, never the request's Host, which whoever asks can set to their own server.
   */
  mailedLinkOrigin: () => string;
  /** Seals TOTP secrets and hashes recovery codes. */
  secondFactorKeys: SecondFactorKeys;
  /** Origin of the gateway as site backends reach it, for the link being written. */
  gatewayOrigin: () => string;
  /** Single sign-on; null when not configured. */
  sso: SsoDeps | null;
  /** How a member can confirm a sign-in, for the guard's RECENT_SIGN_IN_REQUIRED. */
  proofMethods: ProofMethods;
}

export interface AdminContext {
  requestId: string;
  clientAddress: string;
  authorization: string | undefined;
  /** The console's HttpOnly session cookie (used when no Authorization header is sent). */
  session: SessionCookie;
  /** The challenge a single sign-on left for the second factor (HttpOnly cookie), if any. */
  ssoSecondFactor: SecondFactorCookie;
  em: Em;
  logger: Logger;
  deps: AdminDeps;
  /** Set by the auth plugin; null only while an operation is public (`login`). */
  principal: Principal | null;
  /** What resolvers add to their mutation's audit entry (the sign-in method, who signed in). */
  auditNotes: AuditNotes;
}

export function createContextFunction(
  deps: AdminDeps,
): (argument: KoaContextFunctionArgument<AdminState>) => Promise<AdminContext> {
  return async ({ ctx }) => ({
    requestId: ctx.state.requestId,
    clientAddress: ctx.ip,
    authorization: ctx.get('authorization') || undefined,
    session: sessionCookie(ctx, deps.services.config),
    ssoSecondFactor: secondFactorCookie(ctx, deps.services.config),
    em: deps.services.db.em.fork(),
    logger: deps.services.logger,
    deps,
    principal: null,
    auditNotes: new Map(),
  });
}
