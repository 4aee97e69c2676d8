import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SubmissionSchema } from './submission.js';
import { createdAtProperty, idProperty } from './timestamps.js';

// A file of a submission. The bytes live in storage under the random `storageKey`; the original
// name is data only and never becomes a path.
export const StoredFileSchema = defineEntity({
  name: 'StoredFile',
  tableName: 'stored_files',
  properties: {
    id: idProperty(),
    submission: () => p.manyToOne(SubmissionSchema).deleteRule('cascade').index(),
    /** Order of the file in its request, so answers list files as they were sent. */
    position: p.integer(),
    field: p.string().length(255),
    name: p.string().length(255),
    mimeType: p.string().length(255),
    size: p.integer(),
    sha256: p.string().length(64),
    storageKey: p.string().length(128).unique(),
    createdAt: createdAtProperty(),
  },
});

export type StoredFile = InferEntity<typeof StoredFileSchema>;
