import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { createdAtProperty, idProperty } from './timestamps.js';

// A single-use recovery code of a member's second factor: only its keyed hash is stored (the codes
// are shown once, at enrolment); `usedAt` is set when it signs in, and it never works again.
export const RecoveryCodeSchema = defineEntity({
  name: 'RecoveryCode',
  tableName: 'recovery_codes',
  properties: {
    id: idProperty(),
    admin: () => p.manyToOne(AdminUserSchema).deleteRule('cascade'),
    codeHash: p.string().length(64),
    usedAt: p.datetime().nullable(),
    createdAt: createdAtProperty(),
  },
  uniques: [{ properties: ['admin', 'codeHash'] }],
});

export type RecoveryCode = InferEntity<typeof RecoveryCodeSchema>;
