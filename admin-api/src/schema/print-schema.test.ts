import { readFile } from 'node:fs/promises';
import { printAdminSchema } from './print-schema.js';

describe('docs/schema.graphql', () => {
  it('is the schema the admin API builds (run `npm run build` to refresh it)', async () => {
    const committed = await readFile(new URL('../../../docs/schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(await printAdminSchema());
  });
});
