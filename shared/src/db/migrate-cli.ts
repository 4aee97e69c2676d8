// `npm run migrate`: applies pending migrations to the configured database and exits.
import { ConfigError } from '../config/load-config.js';
import { bootstrap } from '../process/bootstrap.js';

try {
  const services = await bootstrap({ migrate: true });
  services.logger.info('database is up to date');
  await services.db.close();
} catch (error) {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`}\n`,
  );
  process.exit(1);
}
