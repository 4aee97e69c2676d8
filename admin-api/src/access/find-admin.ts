import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { normalizeEmail } from './login-policy.js';

/** The longest address an account may have (RFC 5321's path limit, as the column). */
export const EMAIL_MAX_LENGTH = 320;

/** The administrator with this id, or null (deleted since the token was issued). */
export function findAdmin(em: Em, adminId: string): Promise<AdminUser | null> {
  return em.findOne(AdminUserSchema, { id: adminId });
}

/**
 * The administrator a typed sign-in e-mail names (compared trimmed, in lower case), or null. An
 * address no account can have is answered without a query: an over-long one, and one holding
 * U+0000, which PostgreSQL text cannot hold (the query would fail as if the database were down).
 */
export function findAdminByEmail(em: Em, typedEmail: string): Promise<AdminUser | null> {
  const email = normalizeEmail(typedEmail);
  if (email.length > EMAIL_MAX_LENGTH || email.includes('\u0000')) {
    return Promise.resolve(null);
  }
  return em.findOne(AdminUserSchema, { email });
}
