import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAtProperty, idProperty, updatedAtProperty } from './timestamps.js';

// A site is a customer backend. Its control code is inside every site token it holds; changing the
// code (rotation) or setting `deletedAt` makes all of its tokens fail at once.
export const SiteSchema = defineEntity({
  name: 'Site',
  tableName: 'sites',
  properties: {
    id: idProperty(),
    name: p.string().length(200),
    domain: p.string().length(253).nullable(),
    controlCode: p.string().length(64),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
    deletedAt: p.datetime().nullable(),
  },
});

export type Site = InferEntity<typeof SiteSchema>;
