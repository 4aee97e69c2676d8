// Who is calling: an admin with a login token, or an integrator's API token (which acts for the
// admin who created it, when that admin still exists).
export type Principal =
  { kind: 'admin'; adminId: string } | { kind: 'api_token'; apiTokenId: string; adminId: string | null };

/** Roles for `@Authorized(...)`: some account operations need a login, not an API token. */
export const Role = {
  /** Logged in with e-mail and password (an admin token, not an API token). */
  SESSION: 'session',
} as const;

export type RoleName = (typeof Role)[keyof typeof Role];

export function rolesOf(principal: Principal): RoleName[] {
  return principal.kind === 'admin' ? [Role.SESSION] : [];
}
