// Developer command (`npm run migration:create -- <name>`): diffs the entities against a scratch
// embedded database that has every existing migration applied, writes the new migration into
// `migrations/`, and regenerates `migrations/index.ts` so the list stays explicit.
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrate, openDatabase } from './orm.js';

const migrationsDir = path.resolve(process.argv[3] ?? 'migrations');
const name = process.argv[2];

function writeIndex(): void {
  const names = readdirSync(migrationsDir)
    .filter((file) => /^Migration\d+.*\.ts$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();
  const lines = [
    '// The ordered list of migrations, shared by the embedded PGlite and PostgreSQL. Listed explicitly',
    '// (not discovered from the file system) so the compiled services and the tests run the same set.',
    '// `npm run migration:create` regenerates this file.',
    "import type { Migration } from '@mikro-orm/migrations';",
    ...names.map((file) => `import { ${file} } from './${file}.js';`),
    '',
    'type MigrationClass = new (...args: ConstructorParameters<typeof Migration>) => Migration;',
    '',
    'export const MIGRATIONS: { name: string; class: MigrationClass }[] = [',
    ...names.map((file) => `  { name: '${file}', class: ${file} },`),
    '];',
    '',
  ];
  writeFileSync(path.join(migrationsDir, 'index.ts'), lines.join('\n'));
}

const db = await openDatabase({ pgliteDir: null });
try {
  await migrate(db);
  const result = await db.migrator.create(migrationsDir, false, false, name);
  if (result.diff.up.length === 0) {
    console.log('No schema changes: no migration written.');
  } else {
    console.log(`Wrote ${result.fileName}`);
    writeIndex();
  }
} finally {
  await db.close(true);
}
