import type { StoredFileDescription } from '@intake/contract';
import type { StoredFile } from '../entities/stored-file.js';

/** What every answer says of a stored file: the shape is @intake/contract's, which the client shares. */
export type { StoredFileDescription };

/** Built field by field: never the storage key or anything else of the row. */
export function describeStoredFile(file: StoredFile): StoredFileDescription {
  return {
    id: file.id,
    field: file.field,
    name: file.name,
    mimeType: file.mimeType,
    size: file.size,
    sha256: file.sha256,
  };
}
