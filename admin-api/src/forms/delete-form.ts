import type { Em } from '@intake/shared/db';
import { FormSchema } from '@intake/shared/entities';

/** Soft delete; false when there was no such live form. Its submissions are kept. */
export async function deleteForm(em: Em, formId: string): Promise<boolean> {
  const now = new Date();
  return (await em.nativeUpdate(FormSchema, { id: formId, deletedAt: null }, { deletedAt: now, updatedAt: now })) > 0;
}
