// The one site and form a bench run sends to, made directly in the database as an administrator's
// console would leave them: a site with its control code, an enabled form.
import type { Database } from '@intake/shared/db';
import { FormSchema, SiteSchema, type Form, type Site } from '@intake/shared/entities';
import { generateControlCode, generateFormCode } from '@intake/shared/site-token';

export async function createBenchForm(
  db: Database,
  site: { name: string; domain: string } = { name: 'Bench', domain: 'bench.test' },
): Promise<{ site: Site; form: Form }> {
  const em = db.em.fork();
  const created = em.create(SiteSchema, { ...site, controlCode: generateControlCode() });
  const form = em.create(FormSchema, { site: created, name: 'Contact', code: generateFormCode(), enabled: true });
  await em.flush();
  return { site: created, form };
}
