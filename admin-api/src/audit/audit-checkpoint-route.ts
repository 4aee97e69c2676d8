// GET /.well-known/audit-checkpoint: the newest signed checkpoint of the audit chain, for a witness
// outside the database to poll and keep (docs/audit-log.md). Public, as the key set it is checked
// with: a checkpoint states an entry number, a time and two hashes, never what an entry says.
import { AuditCheckpointSchema } from '@intake/shared/entities';
import type { Services } from '@intake/shared/services';
import { QueryOrder } from '@mikro-orm/core';
import type { AdminKoaContext } from '../koa-context.js';

export function latestAuditCheckpoint(services: Pick<Services, 'db'>) {
  return async (ctx: AdminKoaContext): Promise<void> => {
    const latest = await services.db.em
      .fork()
      .findOne(
        AuditCheckpointSchema,
        { kind: 'checkpoint', count: { $ne: null }, signature: { $ne: null } },
        { orderBy: { count: QueryOrder.DESC } },
      );
    ctx.set('Cache-Control', 'no-store');
    ctx.body =
      latest === null
        ? { checkpoint: null }
        : { checkpoint: latest.signature, seq: latest.seq, count: latest.count, at: latest.at.toISOString() };
  };
}
