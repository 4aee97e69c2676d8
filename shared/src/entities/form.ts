import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SiteSchema } from './site.js';
import { createdAtProperty, idProperty, updatedAtProperty } from './timestamps.js';

// A form belongs to one site and is addressed by its random public `code` in the intake URL.
// `allowedMimeTypes` null means the contract's 12 defaults; `maxFileSize` null means MAX_FILE_SIZE.
export const FormSchema = defineEntity({
  name: 'Form',
  tableName: 'forms',
  properties: {
    id: idProperty(),
    site: () => p.manyToOne(SiteSchema).deleteRule('cascade').index(),
    name: p.string().length(200),
    code: p.string().length(64).unique(),
    enabled: p.boolean().default(true),
    allowedMimeTypes: p.array().nullable(),
    maxFileSize: p.integer().nullable(),
    /** Addresses told of every new submission by e-mail; null means none. */
    notifyEmails: p.array().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
    deletedAt: p.datetime().nullable(),
  },
});

export type Form = InferEntity<typeof FormSchema>;
