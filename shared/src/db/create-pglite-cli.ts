// `node create-pglite-cli.js <dir>`: creates an embedded PGlite database in <dir> (initdb) and
// exits. Run by createPgliteInChildProcess, so that initdb's memory leaves with this process.
import { PGlite } from '@electric-sql/pglite';
import { keepWasmOnBaselineCompiler, PGLITE_CONF, PGLITE_INITDB_PARAMS } from './pglite-memory.js';

// A Ctrl-C or a SIGTERM sent to the whole process group is for the parent, which waits for this
// short job and stops once its start-up is done: a half-created database helps no one.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
// A short-lived process gains nothing from TurboFan, which would cost it hundreds of MB more.
keepWasmOnBaselineCompiler();

const dir = process.argv[2];
try {
  if (!dir) {
    throw new Error('usage: create-pglite-cli.js <data directory>');
  }
  const db = await PGlite.create({
    dataDir: dir,
    initDbStartParams: PGLITE_INITDB_PARAMS,
    postgresqlconf: PGLITE_CONF,
  });
  await db.close();
  process.exit(0);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
