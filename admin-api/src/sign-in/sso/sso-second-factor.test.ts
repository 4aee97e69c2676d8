// A member with a second factor (an authenticator app or a passkey) who signs in through the
// provider: the provider stands in for the password only, and the second factor is asked after it,
// in the same step as after a password (docs/single-sign-on.md). Over real HTTP with a real
// provider, the code computed here from the enrolment secret as an authenticator app would.
import { jest } from '@jest/globals';
import { AdminSessionSchema, AdminUserSchema, AuditEntrySchema, PasskeySchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { testDriverName } from '@intake/shared/test';
import { Secret, TOTP } from 'otpauth';
import { startTestAdmin, type TestAdmin } from '../../test/harness.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc-test-provider.js';
import { Browser, SESSION_COOKIE, continuedTo, signedInAs, ssoAttempt } from '../../test/sso-browser.js';

jest.setTimeout(180_000);

const PASSWORD = 'a long member password 1';
const SECOND_FACTOR = '{ ssoSecondFactor { challenge challengeExpiresAt methods } }';
const VERIFY =
  'mutation($challenge: String!, $code: String!) { verifySecondFactor(challenge: $challenge, code: $code) { expiresAt } }';
const STEP_MS = 30_000;

interface Pending {
  challenge: string;
  challengeExpiresAt: string;
  methods: string[];
}

describe(`single sign-on for a member with a second factor, on ${testDriverName()}`, () => {
  let provider: TestOidcProvider;
  let intake: TestAdmin;

  async function addMember(email: string): Promise<string> {
    const em = intake.services.db.em.fork();
    const member = em.create(AdminUserSchema, {
      email,
      name: email.split('@')[0]!,
      role: 'admin',
      status: 'active',
      passwordHash: await hashPassword(PASSWORD),
    });
    await em.flush();
    return member.id;
  }

  /** Enrols an authenticator app for the member through the API, as the console does; its secret. */
  async function enrolTotp(email: string): Promise<string> {
    const token = await intake.login(email, PASSWORD);
    const started = await intake.gql<{ startTwoFactorEnrolment: { secret: string } }>(
      'mutation { startTwoFactorEnrolment { secret } }',
      {},
      token,
    );
    const secret = started.data!.startTwoFactorEnrolment.secret;
    const confirmed = await intake.gql(
      'mutation($code: String!) { confirmTwoFactor(code: $code) { codes } }',
      { code: codeOf(secret, -1) },
      token,
    );
    expect(confirmed.errors).toBeUndefined();
    return secret;
  }

  function codeOf(secret: string, offsetSteps = 0): string {
    const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    return app.generate({ timestamp: Date.now() + offsetSteps * STEP_MS });
  }

  async function withinOneStep(): Promise<void> {
    const left = STEP_MS - (Date.now() % STEP_MS);
    if (left < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, left + 250));
    }
  }

  async function lastEntry(action: string) {
    const [entry] = await intake.services.db.em
      .fork()
      .find(AuditEntrySchema, { action }, { orderBy: { seq: 'desc' }, limit: 1 });
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

  it('asks for the code of the authenticator app after the provider, then signs in', async () => {
    const id = await addMember('tara@example.com');
    const secret = await enrolTotp('tara@example.com');
    const sessionsBefore = await intake.services.db.em.fork().count(AdminSessionSchema, { admin: id });

    const { answer, browser } = await ssoAttempt(provider, intake.url, [
      'tara',
      { email: 'tara@example.com', email_verified: true },
    ]);
    // No session from the provider alone: the sign-in page takes over with the second step.
    expect(await continuedTo(answer)).toBe('/sign-in?second-factor=sso&next=%2Fapi-tokens');
    expect(browser.cookie(intake.url, SESSION_COOKIE)).toBeUndefined();
    expect(await signedInAs(intake.url, browser)).toBeNull();
    expect(await intake.services.db.em.fork().count(AdminSessionSchema, { admin: id })).toBe(sessionsBefore);
    expect(await lastEntry('login')).toMatchObject({
      outcome: 'failure',
      errorCode: 'SECOND_FACTOR_REQUIRED',
      actorId: id,
      details: { method: 'oidc' },
    });
    // Not linked to the provider's account until the second factor is right.
    expect((await intake.services.db.em.fork().findOneOrFail(AdminUserSchema, { id })).ssoSubject).toBeNull();

    // The page reads the step this browser is in; another browser has none.
    expect((await new Browser().graphql<{ ssoSecondFactor: Pending | null }>(intake.url, SECOND_FACTOR)).data).toEqual({
      ssoSecondFactor: null,
    });
    const step = await browser.graphql<{ ssoSecondFactor: Pending }>(intake.url, SECOND_FACTOR);
    expect(step.errors).toBeUndefined();
    expect(step.data!.ssoSecondFactor.methods).toEqual(['totp']);
    const { challenge } = step.data!.ssoSecondFactor;

    const wrong = await browser.graphql(intake.url, VERIFY, {
      challenge,
      code: '000000' === codeOf(secret) ? '111111' : '000000',
    });
    expect(wrong.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await signedInAs(intake.url, browser)).toBeNull();

    await withinOneStep();
    const right = await browser.graphql(intake.url, VERIFY, { challenge, code: codeOf(secret) });
    expect(right.errors).toBeUndefined();
    expect(await signedInAs(intake.url, browser)).toEqual({ email: 'tara@example.com', role: 'admin' });
    expect(await lastEntry('verifySecondFactor')).toMatchObject({
      outcome: 'success',
      actorId: id,
      details: { method: 'oidc+totp' },
    });
    expect((await intake.services.db.em.fork().findOneOrFail(AdminUserSchema, { id })).ssoSubject).toBe('tara');
  });

  it('asks a member whose second factor is a passkey for the passkey, not for nothing', async () => {
    const id = await addMember('pia@example.com');
    const em = intake.services.db.em.fork();
    em.create(PasskeySchema, {
      admin: em.getReference(AdminUserSchema, id),
      name: 'Laptop',
      credentialId: 'cHJldGVuZGVkLWNyZWRlbnRpYWw',
      publicKey: 'cHJldGVuZGVkLWtleQ',
    });
    await em.flush();
    const { answer, browser } = await ssoAttempt(provider, intake.url, [
      'pia',
      { email: 'pia@example.com', email_verified: true },
    ]);
    expect(await continuedTo(answer)).toBe('/sign-in?second-factor=sso&next=%2Fapi-tokens');
    expect(await signedInAs(intake.url, browser)).toBeNull();
    const step = await browser.graphql<{ ssoSecondFactor: Pending }>(intake.url, SECOND_FACTOR);
    expect(step.data?.ssoSecondFactor.methods).toEqual(['passkey']);
  });
});
