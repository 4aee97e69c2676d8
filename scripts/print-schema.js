// Writes the admin API's schema to docs/schema.graphql (run by `npm run build` after tsc): the
// printed reference for users, and what the console's typed operations are generated from. A test
// (admin-api/src/schema/print-schema.test.ts) fails when the committed file is not current.
import { readFile, writeFile } from 'node:fs/promises';
import { printAdminSchema } from '@intake/admin-api/schema';

const target = new URL('../docs/schema.graphql', import.meta.url);
const printed = await printAdminSchema();
const current = await readFile(target, 'utf8').catch(() => '');
if (current !== printed) {
  await writeFile(target, printed);
  console.log('docs/schema.graphql updated');
}
