// The audit log query's filter: a zod schema (bad values are BAD_USER_INPUT), turned into a
// MikroORM condition.
import { AUDIT_OUTCOMES, type AuditEntry } from '@intake/shared/entities';
import type { FilterQuery } from '@mikro-orm/core';
import { z } from 'zod';
import type { AuditLogFilterInput } from '../types/audit.type.js';
import { parseInput } from '../validation/parse-input.js';

const MAX_TEXT_LENGTH = 320;

const time = z
  .string()
  .nullish()
  .refine(
    (value) =>
      value === null || value === undefined || (value.length <= 40 && !Number.isNaN(new Date(value).getTime())),
    'must be an ISO 8601 time',
  )
  .transform((value) => (value === null || value === undefined ? null : new Date(value)));

const text = z
  .string()
  .trim()
  .nullish()
  .refine(
    (value) => value === null || value === undefined || (value !== '' && value.length <= MAX_TEXT_LENGTH),
    `must be 1 to ${MAX_TEXT_LENGTH} characters`,
  )
  .transform((value) => value ?? null);

const auditLogFilterInput = z
  .object({
    actor: text,
    action: text,
    objectType: text,
    objectId: text,
    outcome: z.enum(AUDIT_OUTCOMES).nullish(),
    from: time,
    to: time,
  })
  .nullish();

/** `%` and `_` match literally: the actor filter is a plain "contains". */
function likePattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The filter's conditions (to be and-ed); none without a filter. */
export function auditLogWhere(input: AuditLogFilterInput | null | undefined): FilterQuery<AuditEntry>[] {
  const filter = parseInput(auditLogFilterInput, input, 'filter');
  const conditions: FilterQuery<AuditEntry>[] = [];
  if (!filter) {
    return conditions;
  }
  if (filter.actor !== null) {
    conditions.push({ $or: [{ actorId: filter.actor }, { actorName: { $ilike: likePattern(filter.actor) } }] });
  }
  if (filter.action !== null) {
    conditions.push({ action: filter.action });
  }
  if (filter.objectType !== null) {
    conditions.push({ objectType: filter.objectType });
  }
  if (filter.objectId !== null) {
    conditions.push({ objectId: filter.objectId });
  }
  if (filter.outcome !== null && filter.outcome !== undefined) {
    conditions.push({ outcome: filter.outcome });
  }
  if (filter.from !== null) {
    conditions.push({ at: { $gte: filter.from } });
  }
  if (filter.to !== null) {
    conditions.push({ at: { $lt: filter.to } });
  }
  return conditions;
}
