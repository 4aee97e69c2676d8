// Reading the audit log: administrators only. An API token cannot read it, so a leaked integration
// token can neither survey who administers the service nor watch for its own traces.
import { exportAuditLog, verifyAuditLog } from '@intake/shared/audit';
import type { AuditEntry } from '@intake/shared/entities';
import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { auditLogWhere } from './audit-log-filter.js';
import { listAuditEntries } from './list-audit-entries.js';
import type { AdminContext } from '../context.js';
import { badUserInput } from '../errors.js';
import {
  AuditEntryConnectionType,
  AuditLogExportType,
  AuditLogFilterInput,
  AuditVerificationType,
  type AuditActorKindEnum,
  type AuditEntryType,
  type AuditOutcomeEnum,
} from './audit.type.js';
import { parsePageSize } from '../validation/fields.js';
import { InputArg } from '../validation/input-type.js';
import { decodeCursor, encodeCursor } from '../lib/cursor.js';

function presentAuditEntry(entry: AuditEntry): AuditEntryType {
  return {
    id: entry.id,
    sequence: entry.seq,
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

  @Authorized()
  @Query(() => AuditVerificationType, {
    description:
      'Walks the audit chain and reports the first entry changed, removed or moved, and a witnessed checkpoint the log no longer reaches (docs/audit-log.md). Needs an administrator login.',
  })
  async verifyAuditLog(
    @Arg('witness', () => String, {
      nullable: true,
      description:
        'A signed checkpoint kept outside the database (its compact JWS, as GET /.well-known/audit-checkpoint or the `audit checkpoint` log line gave it): the log must still reach it.',
    })
    witness: string | null | undefined,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<AuditVerificationType> {
    return verifyAuditLog(em, deps.services.auditChain, { witness: witness ?? null });
  }

  @Authorized()
  @Mutation(() => AuditLogExportType, {
    description:
      'The whole audit log with its chain, its anchor and signed checkpoints (a new one for its end), as NDJSON to keep elsewhere and check offline with `scripts/verify-audit-log.mjs`. Needs an administrator login.',
  })
  async exportAuditLog(@Ctx() { em, deps }: AdminContext): Promise<AuditLogExportType> {
    const now = new Date();
    const exported = await exportAuditLog(em, deps.services.auditChain, now);
    return { fileName: `audit-log-${now.toISOString().slice(0, 10)}.ndjson`, ...exported };
  }
}
