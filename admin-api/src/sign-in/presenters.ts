import type { AdminUser, Passkey } from '@intake/shared/entities';
import type { IssuedAdminToken } from '../access/admin-token.js';
import type { MemberRoleEnum } from '../access/member-role.type.js';
import type { TeamPermission } from '../access/permissions.js';
import { hasSecondFactor } from '../access/second-factors.js';
import { presentPasskey } from './passkeys/presenters.js';
import type { AdminUserType, AuthPayloadType } from './sign-in.type.js';

export function presentAuthPayload(
  issued: IssuedAdminToken,
  passkeys: readonly Passkey[] = [],
  recoveryCodesLeft: number | null = null,
): AuthPayloadType {
  return {
    token: issued.token,
    expiresAt: issued.expiresAt.toISOString(),
    passkeysSincePasswordSignIn: passkeys.map(presentPasskey),
    recoveryCodesLeft,
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
