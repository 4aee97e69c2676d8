// The team always starts with an owner: the migration that brought roles made every existing
// account an owner (they all had every power) and gave API tokens without a creator to the first,
// and each start makes the ADMIN_EMAIL account (else the oldest) an owner when no active one exists.
import { AdminUserSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { createTestDatabase, createTestServices, testDriverName } from '@intake/shared/test';
import { ensureAdmin } from './ensure-admin.js';

const BEFORE_MEMBERS = 'Migration20261126100100_stored_text_search';

describe(`the first owner on ${testDriverName()}`, () => {
  it('makes every account that existed before roles an owner, and gives orphaned API tokens to the oldest', async () => {
    const testDb = await createTestDatabase({ migrate: false });
    try {
      await testDb.db.migrator.up({ to: BEFORE_MEMBERS });
      const connection = testDb.db.em.getConnection();
      const hash = await hashPassword('a long enough password');
      await connection.execute(
        `insert into admin_users (id, email, password_hash, password_changed_at, created_at, updated_at) values
         ('11111111-1111-4111-8111-111111111111', 'first@example.com', ?, now(), now() - interval '1 day', now()),
         ('22222222-2222-4222-8222-222222222222', 'second@example.com', ?, now(), now(), now())`,
        [hash, hash],
      );
      await connection.execute(
        `insert into api_tokens (id, name, token_hash, created_by_id, created_at) values
         ('33333333-3333-4333-8333-333333333333', 'orphan', '${'a'.repeat(64)}', null, now())`,
      );
      await testDb.db.migrator.up();
      const accounts = await testDb.db.em.fork().find(AdminUserSchema, {}, { orderBy: { email: 'asc' } });
      expect(accounts.map(({ email, role, status, name }) => ({ email, role, status, name }))).toEqual([
        { email: 'first@example.com', role: 'owner', status: 'active', name: '' },
        { email: 'second@example.com', role: 'owner', status: 'active', name: '' },
      ]);
      const [token] = await connection.execute(`select created_by_id from api_tokens`);
      expect(token).toEqual({ created_by_id: '11111111-1111-4111-8111-111111111111' });
    } finally {
      await testDb.close();
    }
  }, 120_000);

  it('makes the ADMIN_EMAIL account the owner when no active owner exists, else the oldest account', async () => {
    const services = await createTestServices({
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'a long enough password',
    });
    try {
      const em = () => services.db.em.fork();
      expect(await ensureAdmin(services)).toBe('created');
      expect(await em().findOneOrFail(AdminUserSchema, { email: 'boss@example.com' })).toMatchObject({
        role: 'owner',
        status: 'active',
      });

      // An older account and no active owner: the configured one is chosen.
      const older = em();
      older.create(AdminUserSchema, {
        email: 'older@example.com',
        passwordHash: await hashPassword('a long enough password'),
        role: 'admin',
        createdAt: new Date('2020-01-01T00:00:00Z'),
      });
      await older.flush();
      await em().nativeUpdate(AdminUserSchema, { email: 'boss@example.com' }, { role: 'member', status: 'disabled' });
      expect(await ensureAdmin(services)).toBe('exists');
      const roles = async () =>
        Object.fromEntries((await em().find(AdminUserSchema, {})).map((a) => [a.email, `${a.role}/${a.status}`]));
      expect(await roles()).toEqual({ 'boss@example.com': 'owner/active', 'older@example.com': 'admin/active' });

      // An active owner exists: nothing changes.
      await em().nativeUpdate(AdminUserSchema, { email: 'older@example.com' }, { role: 'owner' });
      await em().nativeUpdate(AdminUserSchema, { email: 'boss@example.com' }, { role: 'member' });
      await ensureAdmin(services);
      expect(await roles()).toEqual({ 'boss@example.com': 'member/active', 'older@example.com': 'owner/active' });

      // Without ADMIN_EMAIL: the oldest account.
      await em().nativeUpdate(AdminUserSchema, {}, { role: 'admin' });
      await ensureAdmin({ ...services, config: { ...services.config, admin: undefined } });
      expect(await roles()).toEqual({ 'boss@example.com': 'admin/active', 'older@example.com': 'owner/active' });
    } finally {
      await services.close();
    }
  }, 120_000);
});
