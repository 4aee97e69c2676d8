// A submission as the store receives it (checked, judged, its one file stored, its receipt
// signed), for the store's own suites; each test changes what it is about through `overrides`.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Form, Site } from '@intake/shared/entities';
import type { SubmissionRecord } from '../submission/submission-store.js';

/** The file every record carries, as its row reads back (without its id and storage key). */
export const RECORD_FILE = {
  field: 'cv',
  name: 'cv.txt',
  mimeType: 'text/plain',
  size: 5,
  sha256: 'a'.repeat(64),
};

export function submissionRecord(site: Site, form: Form, overrides: Partial<SubmissionRecord> = {}): SubmissionRecord {
  return {
    id: randomUUID(),
    createdAt: new Date(),
    receipt: `receipt-${randomBytes(8).toString('hex')}`,
    site,
    form,
    webhookIds: [],
    data: { name: 'Ada' },
    sanitizedFields: [],
    idempotencyKey: null,
    spamReason: undefined,
    duplicateFilter: null,
    files: [{ ...RECORD_FILE, storageKey: `ab/${randomBytes(20).toString('hex')}` }],
    ...overrides,
  };
}
