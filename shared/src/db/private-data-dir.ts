import { chmodSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Takes group and others' bits off everything in the embedded database's folder. PGlite (since
 * 0.5.14) writes initdb's files with mode 0666 and its relation cache files (`pg_internal.init`,
 * rewritten at each start) with 0644, whatever the umask PostgreSQL sets; the files PostgreSQL
 * creates for tables are 0600. The folder itself is 0700: this keeps its contents so when copied.
 */
export function keepDataDirPrivate(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      chmodSync(file, mode & 0o700);
    }
  }
}
