import type { Em } from '@intake/shared/db';
import { badUserInput } from '../errors.js';
import { siteLevel } from '../access/permissions.js';
import { loadActiveMember } from '../access/principal.js';

/**
 * The member a submission of `siteId` may be assigned to: an active member who can read that site
 * (owners and admins reach every site; a `member` needs a grant there). BAD_USER_INPUT otherwise,
 * the same for a member who does not exist, so the answer tells nothing more about the team.
 */
export async function checkAssignee(em: Em, memberId: string, siteId: string, field: string): Promise<void> {
  const member = await loadActiveMember(em, memberId);
  if (member === null || siteLevel(member, siteId) === null) {
    throw badUserInput(field, 'must be an active member who can read the submission’s site');
  }
}
