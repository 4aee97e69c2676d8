import type { Em } from '@intake/shared/db';
import { TEAM_POLICY_ID, TeamPolicySchema, type TeamPolicy } from '@intake/shared/entities';

/** The team's sign-in policy (its one row is made by the migration). */
export async function findTeamPolicy(em: Em): Promise<TeamPolicy> {
  return em.findOneOrFail(TeamPolicySchema, { id: TEAM_POLICY_ID });
}
