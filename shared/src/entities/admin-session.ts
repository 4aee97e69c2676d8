import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { createdAtProperty, idProperty } from './timestamps.js';

// A console sign-in: the browser holds a random secret in an HttpOnly cookie, the database only its
// sha256. Signing out deletes the row, so the cookie stops working at once (a stateless token
// could not be ended before it expires).
export const AdminSessionSchema = defineEntity({
  name: 'AdminSession',
  tableName: 'admin_sessions',
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(AdminUserSchema).deleteRule('cascade'),
    secretHash: p.string().length(64).unique(),
    createdAt: createdAtProperty(),
    expiresAt: p.datetime().index(),
  },
});

export type AdminSession = InferEntity<typeof AdminSessionSchema>;
