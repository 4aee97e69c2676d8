import type { Em } from '@intake/shared/db';
import { StoredFileSchema, type StoredFile } from '@intake/shared/entities';

/** The files of some submissions in one query, grouped by submission id, in the order they were sent. */
export async function filesBySubmission(em: Em, submissionIds: readonly string[]): Promise<Map<string, StoredFile[]>> {
  const grouped = new Map<string, StoredFile[]>();
  if (submissionIds.length === 0) {
    return grouped;
  }
  const files = await em.find(
    StoredFileSchema,
    { submission: { $in: [...submissionIds] } },
    { orderBy: { position: 'asc', id: 'asc' } },
  );
  for (const file of files) {
    const list = grouped.get(file.submission.id) ?? [];
    list.push(file);
    grouped.set(file.submission.id, list);
  }
  return grouped;
}
