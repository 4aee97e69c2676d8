import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { withGrants, type MemberWithGrants } from '../../access/find-admin.js';

/** Every member, oldest first. */
export async function listMembers(em: Em): Promise<MemberWithGrants[]> {
  return withGrants(em, await em.find(AdminUserSchema, {}, { orderBy: { createdAt: 'asc', id: 'asc' } }));
}
