import { deleteSubmissions } from '@intake/shared/lifecycle';
import type { Services } from '@intake/shared/services';

/** Deletes a submission with its stored files and deliveries; false when there was no such submission. */
export async function deleteSubmission(services: Services, submissionId: string): Promise<boolean> {
  const deleted = await deleteSubmissions(services, [submissionId], 'a deleted submission');
  return deleted.submissionIds.length > 0;
}
