// Reading the audit log: administrators only. An API token cannot read it, so a leaked integration
// token can neither survey who administers the service nor watch for its own traces.
import type { AuditEntry } from '@intake/shared/entities';
import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import { auditLogWhere } from '../audit/audit-log-filter.js';
import { listAuditEntries } from '../queries/audit/list-audit-entries.js';
import type { AdminContext } from '../context.js';
import { badUserInput } from '../schema/errors.js';
import {
  AuditEntryConnectionType,
  AuditLogFilterInput,
  type AuditActorKindEnum,
  type AuditEntryType,
  type AuditOutcomeEnum,
} from '../types/audit.type.js';
import { parsePageSize } from '../validation/fields.js';
import { InputArg } from '../validation/input-type.js';
import { decodeCursor, encodeCursor } from './cursor.js';

function presentAuditEntry(entry: AuditEntry): AuditEntryType {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    actor: { kind: entry.actorKind as AuditActorKindEnum, id: entry.actorId ?? null, name: entry.actorName },
    action: entry.action,
    objectType: entry.objectType ?? null,
    objectId: entry.objectId ?? null,
    outcome: entry.outcome as AuditOutcomeEnum,
    errorCode: entry.errorCode ?? null,
    address: entry.address ?? null,
    requestId: entry.requestId ?? null,
    details: entry.details ?? null,
  };
}

@Resolver()
export class AuditLogResolver {
  @Authorized()
  @Query(() => AuditEntryConnectionType, {
    description:
      'Newest first; `first` 0..100 (default 20), `after` an endCursor. Needs an administrator login, not an API token.',
  })
  async auditLog(
    @Arg('first', () => Int, { nullable: true }) first: number | null | undefined,
    @Arg('after', () => String, { nullable: true }) after: string | null | undefined,
    @InputArg('filter', AuditLogFilterInput, { nullable: true }) filter: AuditLogFilterInput | null,
    @Ctx() { em }: AdminContext,
  ): Promise<AuditEntryConnectionType> {
    const pageSize = parsePageSize(first, 'first');
    const cursor = after === null || after === undefined ? null : decodeCursor(after);
    if (cursor === null && after !== null && after !== undefined) {
      throw badUserInput('after', 'is not a cursor of this connection');
    }
    const conditions = auditLogWhere(filter);
    const page = await listAuditEntries(em, { conditions, pageSize, after: cursor });
    const edges = page.entries.map((entry) => ({
      cursor: encodeCursor({ createdAt: entry.at, id: entry.id }),
      node: presentAuditEntry(entry),
    }));
    return { edges, pageInfo: { hasNextPage: page.hasNextPage, endCursor: edges.at(-1)?.cursor ?? null } };
  }
}
