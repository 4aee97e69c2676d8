import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAtProperty, idProperty, updatedAtProperty } from './timestamps.js';

// An administrator. `passwordChangedAt` lets a password change end every admin token issued before it.
export const AdminUserSchema = defineEntity({
  name: 'AdminUser',
  tableName: 'admin_users',
  properties: {
    id: idProperty(),
    email: p.string().length(320).unique(),
    passwordHash: p.string().length(255),
    passwordChangedAt: p.datetime().onCreate(() => new Date()),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
  },
});

export type AdminUser = InferEntity<typeof AdminUserSchema>;
