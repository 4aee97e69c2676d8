// What someone with an account at the team's OpenID provider can and cannot do through single sign-on,
// played over real HTTP against a real provider (oidc-provider) on loopback: the account's claims are
// whatever the test says, as if its holder could set every attribute the provider lets them set.
import { jest } from '@jest/globals';
import { AdminSessionSchema, AdminUserSchema, AuditEntrySchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { testDriverName } from '@intake/shared/test';
import { codes, startTestAdmin, type TestAdmin } from '../../test/harness.js';
import { startTestOidcProvider, type TestAccount, type TestOidcProvider } from '../../test/oidc-test-provider.js';
import { refusalOf, signedInAs, ssoAttempt } from '../../test/sso-browser.js';

jest.setTimeout(120_000);

const UNLINK = 'mutation($id: ID!) { unlinkSsoAccount(id: $id) { id email ssoLinked } }';

describe(`single sign-on against a hostile provider account, on ${testDriverName()}`, () => {
  let provider: TestOidcProvider;
  let intake: TestAdmin;
  let ownerToken: string;

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

  async function memberRow(id: string) {
    return intake.services.db.em.fork().findOneOrFail(AdminUserSchema, { id });
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
    ownerToken = await intake.login();
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

  describe('the member it may sign in as', () => {
    it("is linked to the provider's account (issuer and subject) at the first sign-in", async () => {
      const id = await addMember('lin@example.com');
      const { answer, browser } = await attempt([
        'lin-at-the-provider',
        { email: 'lin@example.com', email_verified: true },
      ]);
      expect(answer.status).toBe(200);
      expect(await signedInAs(intake.url, browser)).toEqual({ email: 'lin@example.com', role: 'member' });
      expect(await memberRow(id)).toMatchObject({ ssoIssuer: provider.issuer, ssoSubject: 'lin-at-the-provider' });
      const listed = await intake.gql<{ members: { email: string; ssoLinked: boolean }[] }>(
        '{ members { email ssoLinked } }',
        {},
        ownerToken,
      );
      expect(listed.data?.members.find((member) => member.email === 'lin@example.com')?.ssoLinked).toBe(true);
    });

    it('is refused to another provider account that has the same verified e-mail, until an owner unlinks it', async () => {
      const id = await addMember('kim@example.com', { role: 'admin' });
      const first = await attempt(['kim-at-the-provider', { email: 'kim@example.com', email_verified: true }]);
      expect(first.answer.status).toBe(200);
      // Another account at the provider now says it has kim's address (renamed, re-issued, or a second tenant).
      const impostor = await attempt(['someone-else', { email: 'kim@example.com', email_verified: true }]);
      expect(refusalOf(impostor.answer, intake.url)).toBe('sso_account_mismatch');
      expect(await signedInAs(intake.url, impostor.browser)).toBeNull();
      expect(await sessionsOf(id)).toBe(1);
      expect(await lastLoginEntry()).toMatchObject({
        outcome: 'failure',
        errorCode: 'sso_account_mismatch',
        actorId: id,
        actorName: 'kim@example.com',
      });
      expect((await memberRow(id)).ssoSubject).toBe('kim-at-the-provider');

      // An admin may not unlink; an owner may, and then the next account to sign in is linked.
      const adminToken = await intake.login('kim@example.com', 'a long member password 1');
      expect(codes(await intake.gql(UNLINK, { id }, adminToken))).toEqual(['FORBIDDEN']);
      const unlinked = await intake.gql(UNLINK, { id }, ownerToken);
      expect(unlinked.errors).toBeUndefined();
      expect(unlinked.data).toEqual({ unlinkSsoAccount: { id, email: 'kim@example.com', ssoLinked: false } });
      const [entry] = await intake.services.db.em
        .fork()
        .find(AuditEntrySchema, { action: 'member.ssoUnlinked' }, { orderBy: { seq: 'desc' }, limit: 1 });
      expect(entry).toMatchObject({ outcome: 'success', objectId: id, details: { email: 'kim@example.com' } });
      const again = await attempt(['someone-else', { email: 'kim@example.com', email_verified: true }]);
      expect(again.answer.status).toBe(200);
      expect((await memberRow(id)).ssoSubject).toBe('someone-else');
    });

    it('is one member only: an account linked to one member cannot sign in as another by changing its e-mail', async () => {
      await addMember('may@example.com');
      const other = await addMember('mo@example.com', { role: 'owner' });
      expect((await attempt(['may-account', { email: 'may@example.com', email_verified: true }])).answer.status).toBe(
        200,
      );
      const { answer, browser } = await attempt(['may-account', { email: 'mo@example.com', email_verified: true }]);
      expect(refusalOf(answer, intake.url)).toBe('sso_account_mismatch');
      expect(await signedInAs(intake.url, browser)).toBeNull();
      expect(await sessionsOf(other)).toBe(0);
      expect((await memberRow(other)).ssoSubject).toBeNull();
    });
  });

  describe('an invitation it may accept', () => {
    it('is refused once expired (72 hours), and the member stays invited', async () => {
      const id = await addMember('eve@example.com', {
        role: 'admin',
        status: 'invited',
        invitationExpiresAt: new Date(Date.now() - 60_000),
      });
      const { answer, browser } = await attempt(['eve', { email: 'eve@example.com', email_verified: true }]);
      expect(refusalOf(answer, intake.url)).toBe('sso_invitation_expired');
      expect(await signedInAs(intake.url, browser)).toBeNull();
      expect(await memberRow(id)).toMatchObject({ status: 'invited', invitationUsedAt: null, ssoSubject: null });
      expect(await sessionsOf(id)).toBe(0);
      expect(await lastLoginEntry()).toMatchObject({ outcome: 'failure', errorCode: 'sso_invitation_expired' });
    });

    it('is accepted while it holds', async () => {
      const id = await addMember('ian@example.com', {
        status: 'invited',
        invitationExpiresAt: new Date(Date.now() + 3_600_000),
      });
      const { answer, browser } = await attempt(['ian', { email: 'ian@example.com', email_verified: true }]);
      expect(answer.status).toBe(200);
      expect(await signedInAs(intake.url, browser)).toEqual({ email: 'ian@example.com', role: 'member' });
      expect(await memberRow(id)).toMatchObject({ status: 'active', ssoSubject: 'ian' });
    });
  });
});
