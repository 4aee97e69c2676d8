import type { StoredFile } from '../entities/stored-file.js';

/** What every answer says of a stored file: the 201 body, the admin API and webhook events. */
export interface StoredFileDescription {
  id: string;
  field: string;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
}

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
