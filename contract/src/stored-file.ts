// The stored-file shape: what every answer says of a stored file (the gateway's 201 body, the admin
// API, webhook events) and what the client hands back. The kernel builds it field by field from the
// row (shared/src/stored-file-description), never with the storage key.

export interface StoredFileDescription {
  id: string;
  field: string;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
}
