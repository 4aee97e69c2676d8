import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AdminUserSchema } from './admin-user.js';
import { SiteSchema } from './site.js';
import { createdAtProperty, idProperty } from './timestamps.js';

/** read: forms, submissions, spam, files, exports of the site; manage: also changes them. */
export const SITE_GRANT_LEVELS = ['read', 'manage'] as const;
export type SiteGrantLevel = (typeof SITE_GRANT_LEVELS)[number];

// One site a member (role `member`) may work on, and how far. Owners and admins need none: they
// reach every site. At most one grant per member and site.
export const MemberSiteGrantSchema = defineEntity({
  name: 'MemberSiteGrant',
  tableName: 'member_site_grants',
  properties: {
    id: idProperty(),
    member: () => p.manyToOne(AdminUserSchema).deleteRule('cascade'),
    site: () => p.manyToOne(SiteSchema).deleteRule('cascade').index(),
    level: p.enum(SITE_GRANT_LEVELS).columnType('varchar(16)'),
    createdAt: createdAtProperty(),
  },
  uniques: [{ name: 'member_site_grants_member_id_site_id_unique', properties: ['member', 'site'] }],
});

export type MemberSiteGrant = InferEntity<typeof MemberSiteGrantSchema>;
