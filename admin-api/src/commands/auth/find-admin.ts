import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';

/** The administrator with this id, or null (deleted since the token was issued). */
export function findAdmin(em: Em, adminId: string): Promise<AdminUser | null> {
  return em.findOne(AdminUserSchema, { id: adminId });
}
