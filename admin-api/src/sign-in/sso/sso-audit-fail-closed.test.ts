// No sign-in without its audit entry: when the entry of a single sign-on cannot be written (the
// database refuses every audit row), the callback signs nobody in, leaves no session behind and
// tells the browser so.
import { jest } from '@jest/globals';
import { AdminSessionSchema, AdminUserSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { testDriverName } from '@intake/shared/test';
import { startTestAdmin, type TestAdmin } from '../../test/harness.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc-test-provider.js';
import { refusalOf, SESSION_COOKIE, ssoAttempt } from '../../test/sso-browser.js';

jest.setTimeout(180_000);

describe(`a single sign-on whose audit entry cannot be written, on ${testDriverName()}`, () => {
  let provider: TestOidcProvider;
  let intake: TestAdmin;

  beforeAll(async () => {
    provider = await startTestOidcProvider();
    intake = await startTestAdmin({
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
    });
    provider.allowRedirect(`${intake.url}/auth/oidc/callback`);
    const em = intake.services.db.em.fork();
    em.create(AdminUserSchema, {
      email: 'cole@example.com',
      name: 'Cole',
      role: 'member',
      status: 'active',
      passwordHash: await hashPassword('a long member password 1'),
    });
    await em.flush();
  }, 90_000);

  afterAll(async () => {
    await intake?.close();
    await provider?.close();
  }, 30_000);

  it('signs nobody in and keeps no session', async () => {
    const connection = intake.services.db.em.getConnection();
    await connection.execute(
      `create function refuse_audit() returns trigger language plpgsql as
         $$ begin raise exception 'audit log refused by the test'; end $$`,
    );
    await connection.execute(
      'create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()',
    );
    try {
      const sessionsBefore = await intake.services.db.em.fork().count(AdminSessionSchema, {});
      const { answer, browser } = await ssoAttempt(provider, intake.url, [
        'cole',
        { email: 'cole@example.com', email_verified: true },
      ]);
      expect(refusalOf(answer, intake.url)).toBe('sso_not_recorded');
      expect(browser.cookie(intake.url, SESSION_COOKIE)).toBeUndefined();
      expect(await intake.services.db.em.fork().count(AdminSessionSchema, {})).toBe(sessionsBefore);
    } finally {
      await connection.execute('drop trigger refuse_audit on audit_log');
      await connection.execute('drop function refuse_audit()');
    }
  });
});
