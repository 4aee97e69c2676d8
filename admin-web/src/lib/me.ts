// The signed-in member and their team permissions. The app's RequireSession asks the API and provides
// them (app/require-session.tsx); pages read them here, so no feature imports the app.
import { createContext, useContext } from 'react';
import { type MemberRole } from '../gql/graphql';

/** The team permissions of docs/teams.md, as `me.permissions` answers them. */
export type TeamPermission =
  | 'account'
  | 'tokens:all'
  | 'sites:create'
  | 'sites:delete'
  | 'statistics:read'
  | 'erasure'
  | 'audit:read'
  | 'members:manage';

export interface SignedInAdmin {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  permissions: readonly string[];
}

export const MeContext = createContext<SignedInAdmin | null>(null);

/** The signed-in administrator (inside RequireSession only). */
export function useMe(): SignedInAdmin {
  const me = useContext(MeContext);
  if (me === null) {
    throw new Error('useMe outside RequireSession');
  }
  return me;
}

/**
 * Whether the signed-in member holds a team permission: what they may not do is not offered (the
 * API refuses it anyway).
 */
export function useCan(permission: TeamPermission): boolean {
  return useMe().permissions.includes(permission);
}
