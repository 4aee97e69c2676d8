// The audit log query's filter: the checks of its fields (zod schemas that AuditLogFilterInput
// declares; bad values are BAD_USER_INPUT), and the MikroORM condition a checked filter makes.
import type { AuditEntry, AuditOutcome } from '@intake/shared/entities';
import type { FilterQuery } from '@mikro-orm/core';
import { z } from 'zod';

const MAX_TEXT_LENGTH = 320;

/** An ISO 8601 time; null: unbounded. */
export const auditTime = z
  .string()
  .nullish()
  .refine(
    (value) =>
      value === null || value === undefined || (value.length <= 40 && !Number.isNaN(new Date(value).getTime())),
    'must be an ISO 8601 time',
  )
  .transform((value) => (value === null || value === undefined ? null : new Date(value)));

/** A text condition, trimmed, 1..320 characters; null: none. */
export const auditText = z
  .string()
  .trim()
  .nullish()
  .refine(
    (value) => value === null || value === undefined || (value !== '' && value.length <= MAX_TEXT_LENGTH),
    `must be 1 to ${MAX_TEXT_LENGTH} characters`,
  )
  .transform((value) => value ?? null);

/** A checked AuditLogFilterInput: an absent or null part is no condition. */
export interface AuditLogFilter {
  actor?: string | null;
  action?: string | null;
  objectType?: string | null;
  objectId?: string | null;
  outcome?: AuditOutcome | null;
  from?: Date | null;
  to?: Date | null;
}

/** `%` and `_` match literally: the actor filter is a plain "contains". */
function likePattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The filter's conditions (to be and-ed); none without a filter. */
export function auditLogWhere(filter: AuditLogFilter | null): FilterQuery<AuditEntry>[] {
  const conditions: FilterQuery<AuditEntry>[] = [];
  if (!filter) {
    return conditions;
  }
  if (filter.actor != null) {
    conditions.push({ $or: [{ actorId: filter.actor }, { actorName: { $ilike: likePattern(filter.actor) } }] });
  }
  if (filter.action != null) {
    conditions.push({ action: filter.action });
  }
  if (filter.objectType != null) {
    conditions.push({ objectType: filter.objectType });
  }
  if (filter.objectId != null) {
    conditions.push({ objectId: filter.objectId });
  }
  if (filter.outcome != null) {
    conditions.push({ outcome: filter.outcome });
  }
  if (filter.from != null) {
    conditions.push({ at: { $gte: filter.from } });
  }
  if (filter.to != null) {
    conditions.push({ at: { $lt: filter.to } });
  }
  return conditions;
}
