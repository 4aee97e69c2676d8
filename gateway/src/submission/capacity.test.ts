// The cap's guard in the database alone, without the gateway's turns in one process: 50
// transactions on separate PostgreSQL connections claim a cap of 10 at the same time, as 50
// gateway processes would. Exactly 10 are let through and raise the count; the others roll back.
import { randomUUID } from 'node:crypto';
import { FormSchema } from '@intake/shared/entities';
import { createTestServices, describeOnPostgres, makeForm, makeSite } from '@intake/shared/test';
import { claimCapacity } from './capacity.js';

describeOnPostgres('the cap claimed across PostgreSQL connections', () => {
  it('lets exactly the cap through of 50 concurrent transactions', async () => {
    const services = await createTestServices();
    try {
      const { site } = await makeSite(services);
      const form = await makeForm(services, site);
      await services.db.em.fork().nativeUpdate(FormSchema, { id: form.id }, { maxSubmissions: 10 });
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, () =>
          services.db.em.fork().transactional(async (tx) => {
            const refusal = await claimCapacity(tx, {
              formId: form.id,
              data: {},
              createdAt: new Date(),
              spam: false,
            });
            if (refusal !== null) {
              return refusal.code;
            }
            await tx.execute(
              `insert into "submissions" ("id", "form_id", "data", "sanitized_fields", "created_at", "spam")
               values (?, ?, '{}', '[]', now(), false)`,
              [randomUUID(), form.id],
              'run',
            );
            // Hold the row lock a moment, so the others really wait on it.
            await tx.execute('select pg_sleep(0.01)');
            return 'stored';
          }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(10);
      expect(outcomes.filter((outcome) => outcome === 'form_closed')).toHaveLength(40);
      const [count] = await services.db.em.fork().execute<{ count: number; stored: string }[]>(
        `select c."count", (select count(*) from "submissions" s where s."form_id" = c."form_id")::text as "stored"
           from "form_submission_counts" c where c."form_id" = ? and c."scope" = 'form'`,
        [form.id],
      );
      expect(count).toEqual({ count: 10, stored: '10' });
    } finally {
      await services.close();
    }
  });
});
