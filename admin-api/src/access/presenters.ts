import type { AdminUser, ApiToken, Passkey } from '@intake/shared/entities';
import type { IssuedAdminToken } from './admin-token.js';
import { hasSecondFactor } from './second-factors.js';
import type { TeamPermission } from './permissions.js';
import { presentPasskey } from '../sign-in/passkeys/presenters.js';
import type { ApiTokenLevelEnum, ApiTokenType } from '../tokens/api-token.type.js';
import type { AdminUserType, AuthPayloadType, MemberRoleEnum } from './auth.type.js';

export function presentAuthPayload(issued: IssuedAdminToken, passkeys: readonly Passkey[] = []): AuthPayloadType {
  return {
    token: issued.token,
    expiresAt: issued.expiresAt.toISOString(),
    passkeysSincePasswordSignIn: passkeys.map(presentPasskey),
  };
}

export function presentAdminUser(
  admin: AdminUser,
  permissions: readonly TeamPermission[],
  twoFactorRequired = false,
): AdminUserType {
  return {
    id: admin.id,
    email: admin.email,
    name: admin.name,
    role: admin.role as MemberRoleEnum,
    permissions: [...permissions],
    createdAt: admin.createdAt.toISOString(),
    passwordChangedAt: admin.passwordChangedAt.toISOString(),
    twoFactorEnabled: hasSecondFactor(admin),
    twoFactorRequired,
  };
}

export function presentApiToken(apiToken: ApiToken): ApiTokenType {
  return {
    id: apiToken.id,
    name: apiToken.name,
    level: apiToken.level as ApiTokenLevelEnum,
    siteIds: apiToken.siteIds ?? null,
    expiresAt: apiToken.expiresAt ? apiToken.expiresAt.toISOString() : null,
    createdAt: apiToken.createdAt.toISOString(),
    lastUsedAt: apiToken.lastUsedAt ? apiToken.lastUsedAt.toISOString() : null,
  };
}
