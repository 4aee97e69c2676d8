import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** The JWS `typ` of a receipt, so a receipt is never taken for another statement of the same key. */
export const RECEIPT_TYPE = 'intake-receipt+jws';

/** A stored file as a receipt names it. */
export interface ReceiptFile {
  field: string;
  name: string;
  size: number;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
}

/** What a receipt states (its JWS payload, docs/receipts.md): keys in this order. */
export interface ReceiptClaims {
  submissionId: string;
  formCode: string;
  siteId: string;
  /** ISO 8601, as in the 201 answer. */
  createdAt: string;
  /** Hex SHA-256 of the stored data as RFC 8785 canonical JSON. */
  dataSha256: string;
  /** In the order of the answer's `files`. */
  files: ReceiptFile[];
}

export interface ReceiptSubject {
  submissionId: string;
  formCode: string;
  siteId: string;
  createdAt: Date;
  /** The stored (sanitised) data. */
  data: Record<string, unknown>;
  files: readonly ReceiptFile[];
}

/**
 * Hex SHA-256 of `data` as RFC 8785 canonical JSON (keys sorted, numbers and strings in one
 * spelling): the same for the values the gateway stored and for what the database gives back,
 * whatever order jsonb keeps the keys in.
 */
export function dataSha256(data: Record<string, unknown>): string {
  return createHash('sha256')
    .update(canonicalize(data) ?? '')
    .digest('hex');
}

export function receiptClaims(subject: ReceiptSubject): ReceiptClaims {
  return {
    submissionId: subject.submissionId,
    formCode: subject.formCode,
    siteId: subject.siteId,
    createdAt: subject.createdAt.toISOString(),
    dataSha256: dataSha256(subject.data),
    files: subject.files.map(({ field, name, size, sha256 }) => ({ field, name, size, sha256 })),
  };
}
