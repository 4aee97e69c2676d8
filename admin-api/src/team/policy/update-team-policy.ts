import type { Em } from '@intake/shared/db';
import { TEAM_POLICY_ID, TeamPolicySchema, type TeamPolicy } from '@intake/shared/entities';
import { recordAuditEntry } from '@intake/shared/audit';
import { badUserInput } from '../../errors.js';
import type { ActingMember } from '../../access/acting-member.js';

export interface TeamPolicyChange {
  requireSecondFactor?: boolean | null | undefined;
}

/** Changes the team's sign-in policy (owners only); each changed setting is recorded with from and to. */
export async function updateTeamPolicy(em: Em, acting: ActingMember, change: TeamPolicyChange): Promise<TeamPolicy> {
  if (change.requireSecondFactor === true && !acting.caller.secondFactor) {
    // The owner would be held at enrolment by their own change: they set theirs up first.
    throw badUserInput(
      'input.requireSecondFactor',
      'needs your own two-factor sign-in first: set it up, then require it',
    );
  }
  return em.transactional(async (tx) => {
    const policy = await tx.findOneOrFail(TeamPolicySchema, { id: TEAM_POLICY_ID });
    if (change.requireSecondFactor !== undefined && change.requireSecondFactor !== null) {
      const from = policy.requireSecondFactor;
      policy.requireSecondFactor = change.requireSecondFactor;
      await tx.flush();
      if (from !== change.requireSecondFactor) {
        await recordAuditEntry(tx, acting.auditChain, {
          actor: acting.actor,
          action: 'teamPolicy.changed',
          objectType: 'TeamPolicy',
          details: { setting: 'requireSecondFactor', from, to: change.requireSecondFactor },
          outcome: 'success',
          address: acting.address,
          requestId: acting.requestId,
        });
      }
    }
    return policy;
  });
}
