// The team always starts with an owner: the migration that brought roles made every existing
// account an owner (they all had every power) and gave API tokens without a creator to the first,
// and each start makes the ADMIN_EMAIL account (else the oldest) an owner when no active one exists.
// The ADMIN_EMAIL account is made only for a team with no member at all: one removed later stays
// removed across restarts.
import { AdminUserSchema, AuditEntrySchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { createTestDatabase, createTestServices, graphqlRequest, testDriverName } from '@intake/shared/test';
import { ensureAdmin } from './ensure-admin.js';
import { startAdmin } from '../../server.js';

const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';

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
      const madeOwner = await em().find(AuditEntrySchema, { action: 'member.madeOwner' });
      expect(madeOwner.map(({ actorKind, actorName, details }) => ({ actorKind, actorName, details }))).toEqual([
        {
          actorKind: 'system',
          actorName: 'start-up',
          details: { email: 'boss@example.com', fromRole: 'member', fromStatus: 'disabled' },
        },
      ]);

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

  it('never brings a removed ADMIN_EMAIL owner back at the next start, and says in the log why not', async () => {
    const env = {
      ADMIN_EMAIL: 'first@example.com',
      ADMIN_PASSWORD: 'the password in the .env file',
      LOG_LEVEL: 'info',
    };
    const lines: string[] = [];
    const services = await createTestServices(env, { logDestination: { write: (line: string) => lines.push(line) } });
    let admin = await startAdminAfter(services);
    try {
      const login = (email: string, password: string) =>
        graphqlRequest<{ login: { token: string } }>(admin.url, LOGIN, { email, password });
      const first = (await login(env.ADMIN_EMAIL, env.ADMIN_PASSWORD)).data!.login.token;
      const created = await graphqlRequest<{ createMember: { member: { id: string }; password: string } }>(
        admin.url,
        'mutation { createMember(input: { email: "next@example.com", name: "Next", role: owner, grants: [] }) { member { id } password } }',
        {},
        first,
      );
      const next = (await login('next@example.com', created.data!.createMember.password)).data!.login.token;
      const me = await graphqlRequest<{ me: { id: string } }>(admin.url, '{ me { id } }', {}, first);
      const removed = await graphqlRequest(
        admin.url,
        'mutation($id: ID!) { removeMember(id: $id) }',
        { id: me.data!.me.id },
        next,
      );
      expect(removed.errors).toBeUndefined();

      // The restart: the server stops, and the start-up runs again on the same database.
      await admin.close();
      lines.length = 0;
      admin = await startAdminAfter(services);
      const refused = await login(env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
      expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['UNAUTHENTICATED']);
      const accounts = await services.db.em.fork().find(AdminUserSchema, {});
      expect(accounts.map((account) => `${account.email} ${account.role}`)).toEqual(['next@example.com owner']);
      const audited = await services.db.em.fork().find(AuditEntrySchema, { action: 'member.removed' });
      expect(audited).toHaveLength(1);

      const said = lines.map((line) => JSON.parse(line) as { msg: string; email?: string });
      expect(said).toContainEqual(
        expect.objectContaining({
          email: 'first@example.com',
          msg: 'ADMIN_EMAIL account not created: the team already has members (an owner invites it, or it was removed on purpose)',
        }),
      );
      expect(lines.join('')).not.toContain(env.ADMIN_PASSWORD);
    } finally {
      await admin.close();
      await services.close();
    }
  }, 120_000);
});

/** What a start does: ensureAdmin, then the admin API listening. */
async function startAdminAfter(services: Awaited<ReturnType<typeof createTestServices>>) {
  await ensureAdmin(services);
  return startAdmin(services);
}
