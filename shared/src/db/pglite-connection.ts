// Tells PGlite's connection from PostgreSQL's without importing PGlite's driver, which orm.ts loads
// only when it opens the embedded database: a process on PostgreSQL never does.
import type { PgliteConnection } from '@mikro-orm/pglite';

/** Whether `connection` is a PgliteConnection, judged by class name since the class may not be loaded. */
export function isPgliteConnection(connection: object): connection is PgliteConnection {
  for (let proto: unknown = Object.getPrototypeOf(connection); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if ((proto as { constructor?: { name?: string } }).constructor?.name === 'PgliteConnection') {
      return true;
    }
  }
  return false;
}
