import type { Em } from '@intake/shared/db';
import { AuditEntrySchema, type AuditEntry } from '@intake/shared/entities';
import type { FilterQuery } from '@mikro-orm/core';

export interface AuditPageQuery {
  /** The filter's conditions (auditLogWhere). */
  conditions: FilterQuery<AuditEntry>[];
  pageSize: number;
  /** The sort key of the last entry of the previous page. */
  after: { createdAt: Date; id: string } | null;
}

/** A page of the audit log, newest first, and whether there is a next one. */
export async function listAuditEntries(
  em: Em,
  query: AuditPageQuery,
): Promise<{ entries: AuditEntry[]; hasNextPage: boolean }> {
  const conditions = [...query.conditions];
  if (query.after !== null) {
    const { createdAt, id } = query.after;
    conditions.push({ $or: [{ at: { $lt: createdAt } }, { at: createdAt, id: { $lt: id } }] });
  }
  const where: FilterQuery<AuditEntry> = conditions.length === 0 ? {} : { $and: conditions };
  // Keyset pagination on (at, id); one extra row tells whether there is a next page.
  const rows = await em.find(AuditEntrySchema, where, {
    orderBy: { at: 'desc', id: 'desc' },
    limit: query.pageSize + 1,
  });
  return { entries: rows.slice(0, query.pageSize), hasNextPage: rows.length > query.pageSize };
}
