// Resolves `Authorization: Bearer <token>` (or, without that header, the console's session cookie)
// to a principal, or null when there is neither or it is not (or no longer) valid. Callers turn null
// into UNAUTHENTICATED; an API token past its end is refused here, UNAUTHENTICATED saying it expired. A header that is present but wrong never falls back to the cookie. Every
// credential acts for an active member, read fresh here: a disabled member's sessions, admin tokens
// and API tokens stop at once.
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, ApiTokenSchema } from '@intake/shared/entities';
import type { AdminTokens } from './admin-token.js';
import { findSession } from './admin-sessions.js';
import { hashApiToken, looksLikeApiToken } from './api-token.js';
import { activeMember, MEMBER_POPULATE, signedInPrincipal, type Principal } from './principal.js';
import { unauthenticated } from '../errors.js';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;
// lastUsedAt is informative; writing it on every request would turn every read into a write.
const LAST_USED_RESOLUTION_MS = 60_000;

export interface AuthenticateDeps {
  em: Em;
  adminTokens: AdminTokens;
  now?: () => Date;
}

export function bearerToken(authorization: string | undefined): string | null {
  const match = authorization === undefined ? null : BEARER.exec(authorization);
  return match?.[1] ?? null;
}

export async function authenticate(
  deps: AuthenticateDeps,
  authorization: string | undefined,
  sessionSecret?: string,
): Promise<Principal | null> {
  if (authorization === undefined && sessionSecret !== undefined) {
    const session = await findSession(deps.em, sessionSecret);
    const member = session === null ? null : await activeMember(deps.em, session.admin);
    return member === null ? null : signedInPrincipal(deps.em, member, session!.startedAt);
  }
  const token = bearerToken(authorization);
  if (token === null) {
    return null;
  }
  const now = deps.now?.() ?? new Date();
  if (looksLikeApiToken(token)) {
    const apiToken = await deps.em.findOne(
      ApiTokenSchema,
      { tokenHash: hashApiToken(token), revokedAt: null },
      { populate: ['createdBy', ...MEMBER_POPULATE.map((field) => `createdBy.${field}` as const)] },
    );
    const creator = apiToken?.createdBy ?? null;
    const member = creator === null ? null : await activeMember(deps.em, creator);
    if (apiToken === null || member === null) {
      return null;
    }
    if (apiToken.expiresAt !== null && apiToken.expiresAt !== undefined && apiToken.expiresAt <= now) {
      // Said plainly so its owner knows to make a new one; the answer names neither the token nor its secret.
      throw unauthenticated('This API token has expired');
    }
    if (
      apiToken.lastUsedAt === null ||
      apiToken.lastUsedAt === undefined ||
      now.getTime() - apiToken.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS
    ) {
      await deps.em.nativeUpdate(ApiTokenSchema, { id: apiToken.id }, { lastUsedAt: now });
    }
    const scope = { level: apiToken.level, siteIds: apiToken.siteIds ? new Set(apiToken.siteIds) : null };
    return { kind: 'api_token', apiTokenId: apiToken.id, adminId: member.id, member, scope };
  }
  const claims = deps.adminTokens.verify(token);
  if (claims === null) {
    return null;
  }
  const admin = await deps.em.findOne(AdminUserSchema, { id: claims.adminId }, { populate: MEMBER_POPULATE });
  // Gone, or the password changed after this token was issued.
  if (admin === null || admin.passwordChangedAt.getTime() !== claims.passwordVersion) {
    return null;
  }
  const member = await activeMember(deps.em, admin);
  return member === null ? null : signedInPrincipal(deps.em, member, claims.issuedAt);
}
