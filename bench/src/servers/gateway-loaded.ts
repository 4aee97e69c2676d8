// The floor of the idle gateway's memory: `start:gateway`'s code loaded (the gateway's module graph,
// as its entry imports it) and its services made as it makes them (configuration, logger, the
// database opened and one query answered, the heap settled as main.ts settles it once listening),
// but nothing started: no app, no server, no caches. It logs one line when there, then idles until stopped.
import '@intake/gateway';
import { bootstrap, settleHeap } from '@intake/shared/process';

const services = await bootstrap({ migrate: false, requireDatabaseUrl: true });
await services.db.em.fork().getConnection().execute('select 1');
settleHeap();
services.logger.info({ service: 'gateway' }, 'loaded');
const stop = async () => {
  await services.db.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
setInterval(() => undefined, 60_000);
