import { createTestDatabase, testDriverName, type TestDatabase } from '../test/database.js';
import { FormSchema, SiteSchema, SubmissionSchema } from '../entities/index.js';
import { pingDatabase } from './orm.js';

describe(`database on ${testDriverName()}`, () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });

  afterAll(async () => {
    await testDb.close();
  });

  it('leaves no schema difference between the migrations and the entities', async () => {
    const diff = await testDb.db.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });

  it('has no pending migration after migrating', async () => {
    expect(await testDb.db.migrator.getPending()).toEqual([]);
  });

  it('answers a readiness ping', async () => {
    expect(await pingDatabase(testDb.db)).toBe(true);
  });

  it('stores jsonb data and refuses a repeated idempotency key on one form', async () => {
    const em = testDb.db.em.fork();
    const site = em.create(SiteSchema, { name: 'Site', controlCode: 'c'.repeat(43) });
    const form = em.create(FormSchema, { site, name: 'Contact', code: 'code-'.padEnd(24, 'x') });
    em.create(SubmissionSchema, {
      form,
      data: { name: 'Ada', nested: { list: [1, true, null] } },
      idempotencyKey: 'k1',
    });
    await em.flush();

    const read = await testDb.db.em.fork().findOneOrFail(SubmissionSchema, { idempotencyKey: 'k1' });
    expect(read.data).toEqual({ name: 'Ada', nested: { list: [1, true, null] } });

    const second = testDb.db.em.fork();
    second.create(SubmissionSchema, { form: second.getReference(FormSchema, form.id), data: {}, idempotencyKey: 'k1' });
    await expect(second.flush()).rejects.toThrow(/unique|duplicate/i);
  });
});
