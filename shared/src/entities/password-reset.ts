import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { createdAtProperty, idProperty } from './timestamps.js';

// A "forgot password" link of a member, asked for on the sign-in page or sent by an owner or admin:
// the database keeps only the sha256 of its random token. Single use (usedAt) and short-lived; a new
// link, or a password set through one, ends every other link of the member.
export const PasswordResetSchema = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_resets',
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(AdminUserSchema).deleteRule('cascade').index(),
    tokenHash: p.string().length(64).unique(),
    createdAt: createdAtProperty(),
    expiresAt: p.datetime().index(),
    usedAt: p.datetime().nullable(),
  },
});

export type PasswordReset = InferEntity<typeof PasswordResetSchema>;
