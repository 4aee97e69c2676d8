import type { Em } from '@intake/shared/db';
import type { StoredFile, Submission } from '@intake/shared/entities';
import { checkReceipt, type ReceiptCheck } from '@intake/shared/receipts';
import type { SigningKeys } from '@intake/shared/signing';

/**
 * A submission's stored receipt checked against the published keys and the submission as it is
 * stored now (its form's code and site, its data, its files); null when it has no receipt (stored
 * before receipts existed).
 */
export async function checkStoredReceipt(
  em: Em,
  keys: SigningKeys,
  submission: Submission,
  files: readonly StoredFile[],
): Promise<ReceiptCheck | null> {
  if (!submission.receipt) {
    return null;
  }
  // Read directly: the form may be soft-deleted, and only its code and site are needed.
  const [form] = await em.execute<{ code: string; site_id: string }[]>(
    'select "code", "site_id" from "forms" where "id" = ?',
    [submission.form.id],
  );
  return checkReceipt(keys, submission.receipt, {
    submissionId: submission.id,
    formCode: form?.code ?? '',
    siteId: form?.site_id ?? '',
    createdAt: submission.createdAt,
    data: submission.data,
    files,
  });
}
