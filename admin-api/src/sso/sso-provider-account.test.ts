// What someone with an account at the team's OpenID provider can and cannot do through single sign-on,
// played over real HTTP against a real provider (oidc-provider) on loopback: the account's claims are
// whatever the test says, as if its holder could set every attribute the provider lets them set.
import { jest } from '@jest/globals';
import { AdminSessionSchema, AdminUserSchema, AuditEntrySchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { testDriverName } from '@intake/shared/test';
import { startTestAdmin, type TestAdmin } from '../test/harness.js';
import { startTestOidcProvider, type TestAccount, type TestOidcProvider } from '../test/oidc-test-provider.js';
import { refusalOf, signedInAs, ssoAttempt } from '../test/sso-browser.js';

jest.setTimeout(120_000);

describe(`single sign-on against a hostile provider account, on ${testDriverName()}`, () => {
  let provider: TestOidcProvider;
  let intake: TestAdmin;

  async function addMember(
    email: string,
    fields: { role?: 'owner' | 'admin' | 'member'; status?: 'active' | 'invited'; invitationExpiresAt?: Date } = {},
  ): Promise<string> {
    const em = intake.services.db.em.fork();
    const member = em.create(AdminUserSchema, {
      email,
      name: email.split('@')[0]!,
      role: fields.role ?? 'member',
      status: fields.status ?? 'active',
      passwordHash: await hashPassword('a long member password 1'),
      ...(fields.invitationExpiresAt === undefined
        ? {}
        : {
            invitedAt: new Date(fields.invitationExpiresAt.getTime() - 72 * 3600_000),
            invitationExpiresAt: fields.invitationExpiresAt,
          }),
    });
    await em.flush();
    return member.id;
  }

  const attempt = (account: [string, TestAccount]) => ssoAttempt(provider, intake.url, account);

  async function sessionsOf(id: string): Promise<number> {
    return intake.services.db.em.fork().count(AdminSessionSchema, { admin: id });
  }

  async function lastLoginEntry() {
    const [entry] = await intake.services.db.em
      .fork()
      .find(AuditEntrySchema, { action: 'login' }, { orderBy: { seq: 'desc' }, limit: 1 });
    return entry;
  }

  beforeAll(async () => {
    provider = await startTestOidcProvider();
    intake = await startTestAdmin({
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_ALLOWED_DOMAINS: 'example.com',
    });
    provider.allowRedirect(`${intake.url}/auth/oidc/callback`);
  }, 90_000);

  afterAll(async () => {
    await intake?.close();
    await provider?.close();
  }, 30_000);

  describe('the e-mail it may name', () => {
    it('is not verified by `email_verified: "true"`, a string: only the boolean true verifies', async () => {
      const id = await addMember('sid@example.com');
      const { answer, browser } = await attempt(['sid', { email: 'sid@example.com', email_verified: 'true' }]);
      expect(refusalOf(answer, intake.url)).toBe('sso_email_unverified');
      expect(await signedInAs(intake.url, browser)).toBeNull();
      expect(await sessionsOf(id)).toBe(0);
      expect(await lastLoginEntry()).toMatchObject({ outcome: 'failure', errorCode: 'sso_email_unverified' });
    });

    it("takes the e-mail and its verification from one answer: an ID token's unverified address is not verified by userinfo's", async () => {
      const id = await addMember('una@example.com');
      // The ID token names una's address without saying it is verified; userinfo verifies another one.
      const { answer, browser } = await attempt([
        'una',
        { email: 'own@example.com', email_verified: true, idToken: { email: 'una@example.com' } },
      ]);
      expect(refusalOf(answer, intake.url)).toBe('sso_email_unverified');
      expect(await signedInAs(intake.url, browser)).toBeNull();
      expect(await sessionsOf(id)).toBe(0);
    });
  });
});
