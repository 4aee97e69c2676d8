// What a stolen session can and cannot do (docs/security.md#a-stolen-session, docs/sign-in.md#recent-sign-in),
// played over a listening admin API: a console cookie or an admin token started more than ten minutes
// ago, held by someone without the password or a second factor. Passkeys themselves (confirming with
// one, listing those added by such a session at a password change) are played with Chromium in
// tests/src/end-to-end/passkeys.test.ts; the console's dialog in tests/src/console/recent-sign-in.test.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { AdminUserSchema, ApiTokenSchema, AuditEntrySchema } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { Secret, TOTP } from 'otpauth';
import { createAdminTokens } from '../../access/admin-token.js';
import { OPERATION_PERMISSIONS, type OperationRule } from '../../access/permissions.js';
import { RECENT_SIGN_IN_SECONDS } from '../../access/recent-sign-in.js';
import { SESSION_COOKIE } from '../sessions/session-cookie.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, codes, startTestAdmin, type TestAdmin } from '../../test/harness.js';

jest.setTimeout(120_000);

const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';
const CONFIRM_PASSWORD = 'mutation($password: String!) { confirmSignIn(password: $password) { token expiresAt } }';
const CONFIRM_CODE = 'mutation($code: String!) { confirmSignIn(code: $code) { token } }';
const CREATE_TOKEN = 'mutation { createApiToken(name: "stolen") { token } }';

interface Answer {
  status: number;
  setCookie: string[];
  body: { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, any> }[] };
}

describe(`a stolen session on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let ownerId: string;
  let invitedId: string;

  beforeAll(async () => {
    admin = await startTestAdmin();
    ownerId = (await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { email: ADMIN_EMAIL })).id;
    const token = await admin.login();
    const invited = await admin.gql(
      'mutation { inviteMember(input: { email: "invited@example.com", role: member }) { member { id } } }',
      {},
      token,
    );
    invitedId = invited.data!.inviteMember.member.id;
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function post(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: response.status,
      setCookie: response.headers.getSetCookie(),
      body: (await response.json()) as Answer['body'],
    };
  }

  function cookieOf(answer: Answer): string {
    const line = answer.setCookie.find((value) => value.startsWith(`${SESSION_COOKIE}=`));
    return line!.split(';')[0]!;
  }

  /** A console session of the member, started now. */
  async function signIn(email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
    return cookieOf(await post(LOGIN, { email, password }));
  }

  /** Moves every session of the member back in time, as if signed in `minutes` ago. */
  async function age(email: string, minutes: number): Promise<void> {
    await admin.services.db.em
      .fork()
      .getConnection()
      .execute(
        `update admin_sessions set created_at = created_at - (? * interval '1 minute')
         where admin_id = (select id from admin_users where email = ?)`,
        [minutes, email],
      );
  }

  /** A new member of the team, and the password createMember gave them. */
  async function member(email: string, role = 'member'): Promise<{ id: string; password: string }> {
    const owner = await admin.login();
    const created = await admin.gql(
      'mutation($input: CreateMemberInput!) { createMember(input: $input) { member { id } password } }',
      { input: { email, name: email, role, grants: [] } },
      owner,
    );
    expect(created.errors).toBeUndefined();
    const { member: made, password } = created.data!.createMember;
    return { id: made.id, password };
  }

  // How to call each operation that needs a recent sign-in: what it is asked does not matter, the
  // refusal comes before the operation looks at its arguments.
  const CALLS: Record<string, () => { query: string; variables?: Record<string, unknown> }> = {
    createApiToken: () => ({ query: CREATE_TOKEN }),
    createMember: () => ({
      query:
        'mutation { createMember(input: { email: "accomplice@example.com", name: "A", role: owner, grants: [] }) { password } }',
    }),
    updateMember: () => ({
      query: 'mutation($id: ID!) { updateMember(id: $id, input: { role: member }) { id } }',
      variables: { id: invitedId },
    }),
    inviteMember: () => ({
      query: 'mutation { inviteMember(input: { email: "accomplice2@example.com", role: owner }) { link } }',
    }),
    resendInvitation: () => ({
      query: 'mutation($id: ID!) { resendInvitation(id: $id) { link } }',
      variables: { id: invitedId },
    }),
    updateSsoPolicy: () => ({ query: 'mutation { updateSsoPolicy(passwordSignIn: false) { passwordSignIn } }' }),
    unlinkSsoAccount: () => ({
      query: 'mutation($id: ID!) { unlinkSsoAccount(id: $id) { id } }',
      variables: { id: invitedId },
    }),
    startTwoFactorEnrolment: () => ({ query: 'mutation { startTwoFactorEnrolment { secret } }' }),
    confirmTwoFactor: () => ({ query: 'mutation { confirmTwoFactor(code: "123456") { codes } }' }),
    resetMemberTwoFactor: () => ({
      query: 'mutation($id: ID!) { resetMemberTwoFactor(id: $id) { id } }',
      variables: { id: invitedId },
    }),
    resetMemberPassword: () => ({
      query: 'mutation($id: ID!) { resetMemberPassword(id: $id) { link } }',
      variables: { id: invitedId },
    }),
    updateTeamPolicy: () => ({
      query: 'mutation { updateTeamPolicy(input: { requireSecondFactor: false }) { requireSecondFactor } }',
    }),
    startPasskeyRegistration: () => ({ query: 'mutation { startPasskeyRegistration }' }),
    finishPasskeyRegistration: () => ({
      query: 'mutation { finishPasskeyRegistration(name: "Attacker key", response: {}) { id } }',
    }),
    removePasskey: () => ({ query: 'mutation($id: ID!) { removePasskey(id: $id) }', variables: { id: randomUUID() } }),
  };

  const needingRecentSignIn = () =>
    (Object.entries(OPERATION_PERMISSIONS.Mutation) as [string, OperationRule][])
      .filter(([, rule]) => 'recentSignIn' in rule && rule.recentSignIn === true)
      .map(([field]) => field)
      .sort();

  it('cannot add a way in or change how the team signs in: each such operation answers RECENT_SIGN_IN_REQUIRED', async () => {
    expect(needingRecentSignIn()).toEqual(Object.keys(CALLS).sort());
    const cookie = await signIn();
    await age(ADMIN_EMAIL, 11);
    const tokensBefore = await admin.services.db.em.fork().count(ApiTokenSchema, {});
    const membersBefore = await admin.services.db.em.fork().count(AdminUserSchema, {});
    for (const [field, call] of Object.entries(CALLS)) {
      const { query, variables } = call();
      const answer = await post(query, variables, { cookie });
      expect([field, answer.status, codes(answer.body as never)]).toEqual([field, 200, ['RECENT_SIGN_IN_REQUIRED']]);
      const error = answer.body.errors![0]!;
      // What proves it is the member: a password, and (none here) a code, a passkey, the provider.
      expect(error.extensions).toMatchObject({ methods: ['password'], withinSeconds: RECENT_SIGN_IN_SECONDS });
      expect(error.message).toMatch(/confirmSignIn/);
    }
    expect(await admin.services.db.em.fork().count(ApiTokenSchema, {})).toBe(tokensBefore);
    expect(await admin.services.db.em.fork().count(AdminUserSchema, {})).toBe(membersBefore);

    // An admin token issued eleven minutes ago is refused alike.
    const owner = await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { id: ownerId });
    const oldToken = createAdminTokens(admin.services.config).issue(
      ownerId,
      owner.passwordChangedAt,
      new Date(Date.now() - 11 * 60_000),
    ).token;
    const byToken = await admin.gql(CREATE_TOKEN, {}, oldToken);
    expect(codes(byToken)).toEqual(['RECENT_SIGN_IN_REQUIRED']);
    // Everything else its member may do, it still does.
    const sites = await admin.gql('mutation { createSite(input: { name: "Still mine" }) { id } }', {}, oldToken);
    expect(sites.errors).toBeUndefined();
  });

  it('can do all of it within ten minutes of the sign-in that started it', async () => {
    const cookie = await signIn();
    await age(ADMIN_EMAIL, 9);
    const made = await post(CREATE_TOKEN, {}, { cookie });
    expect(made.body.errors).toBeUndefined();
    expect(made.body.data!.createApiToken.token).toMatch(/^itk_/);
  });

  it('cannot confirm without the password: a wrong one is BAD_USER_INPUT, and 10 guesses per 15 minutes', async () => {
    const guesser = await member('guessed@example.com');
    const cookie = await signIn('guessed@example.com', guesser.password);
    await age('guessed@example.com', 11);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const wrong = await post(CONFIRM_PASSWORD, { password: `guess ${attempt}` }, { cookie });
      expect([attempt, codes(wrong.body as never)]).toEqual([attempt, ['BAD_USER_INPUT']]);
      expect(wrong.body.errors![0]!.extensions).toMatchObject({ field: 'password' });
    }
    const limited = await post(CONFIRM_PASSWORD, { password: guesser.password }, { cookie });
    expect(limited.status).toBe(429);
    expect(codes(limited.body as never)).toEqual(['RATE_LIMITED']);
    // The same limit as changePassword's check of the current password.
    const change = await post(
      'mutation($p: String!) { changePassword(currentPassword: $p, newPassword: "a new long password") { token } }',
      { p: guesser.password },
      { cookie },
    );
    expect(codes(change.body as never)).toEqual(['RATE_LIMITED']);
  });

  it("cannot ride on the member's own confirmation: it starts a new session and ends the one it was sent with", async () => {
    const stolen = await signIn();
    await age(ADMIN_EMAIL, 11);
    const confirmed = await post(CONFIRM_PASSWORD, { password: ADMIN_PASSWORD }, { cookie: stolen });
    expect(confirmed.body.errors).toBeUndefined();
    const fresh = cookieOf(confirmed);
    expect(fresh).not.toBe(stolen);
    // The copy of the old cookie is signed out; the confirmed browser makes the change.
    const replay = await post(CREATE_TOKEN, {}, { cookie: stolen });
    expect([replay.status, codes(replay.body as never)]).toEqual([401, ['UNAUTHENTICATED']]);
    const made = await post(CREATE_TOKEN, {}, { cookie: fresh });
    expect(made.body.errors).toBeUndefined();

    // With an admin token, the answer is a new token that is recent; the old one is not made recent.
    const owner = await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { id: ownerId });
    const oldToken = createAdminTokens(admin.services.config).issue(
      ownerId,
      owner.passwordChangedAt,
      new Date(Date.now() - 11 * 60_000),
    ).token;
    const byToken = await admin.gql(CONFIRM_PASSWORD, { password: ADMIN_PASSWORD }, oldToken);
    expect(byToken.errors).toBeUndefined();
    expect(codes(await admin.gql(CREATE_TOKEN, {}, oldToken))).toEqual(['RECENT_SIGN_IN_REQUIRED']);
    expect((await admin.gql(CREATE_TOKEN, {}, byToken.data!.confirmSignIn.token)).errors).toBeUndefined();
  });

  it('confirms with a code of the authenticator app or an unused recovery code instead of the password', async () => {
    const coder = await member('coder@example.com');
    const token = (await admin.gql(LOGIN, { email: 'coder@example.com', password: coder.password })).data!.login
      .token as string;
    const started = await admin.gql('mutation { startTwoFactorEnrolment { secret } }', {}, token);
    const app = new TOTP({ secret: Secret.fromBase32(started.data!.startTwoFactorEnrolment.secret) });
    const confirmed = await admin.gql(
      'mutation($code: String!) { confirmTwoFactor(code: $code) { codes } }',
      { code: app.generate({ timestamp: Date.now() - 30_000 }) },
      token,
    );
    const [recovery] = confirmed.data!.confirmTwoFactor.codes as string[];
    const challenge = (await admin.gql(LOGIN, { email: 'coder@example.com', password: coder.password })).errors![0]!
      .extensions!.challenge as string;
    const cookie = cookieOf(
      await post('mutation($c: String!, $code: String!) { verifySecondFactor(challenge: $c, code: $code) { token } }', {
        c: challenge,
        code: app.generate(),
      }),
    );
    await age('coder@example.com', 11);
    const refused = await post(CREATE_TOKEN, {}, { cookie });
    expect(refused.body.errors![0]!.extensions).toMatchObject({ methods: ['password', 'totp'] });

    const wrong = await post(CONFIRM_CODE, { code: '000000' }, { cookie });
    expect(codes(wrong.body as never)).toEqual(['BAD_USER_INPUT']);
    const byRecovery = await post(CONFIRM_CODE, { code: recovery }, { cookie });
    expect(byRecovery.body.errors).toBeUndefined();
    const made = await post(CREATE_TOKEN, {}, { cookie: cookieOf(byRecovery) });
    expect(made.body.errors).toBeUndefined();
    // A recovery code is used once, here too.
    await age('coder@example.com', 11);
    const again = await post(CONFIRM_CODE, { code: recovery }, { cookie: cookieOf(byRecovery) });
    expect(codes(again.body as never)).toEqual(['BAD_USER_INPUT']);

    // Turning two-factor sign-in off, new recovery codes and a new password take a current code or
    // the current password, which is their own proof: without it, nothing changes.
    const stolen = cookieOf(byRecovery);
    const off = await post(
      'mutation($code: String!) { disableTwoFactor(code: $code) }',
      { code: '000000' },
      {
        cookie: stolen,
      },
    );
    expect(codes(off.body as never)).toEqual(['BAD_USER_INPUT']);
    const regenerated = await post(
      'mutation($code: String!) { regenerateRecoveryCodes(code: $code) { codes } }',
      { code: 'abcde-fghij' },
      { cookie: stolen },
    );
    expect(codes(regenerated.body as never)).toEqual(['BAD_USER_INPUT']);
    const changed = await post(
      'mutation { changePassword(currentPassword: "a guess", newPassword: "the thief\'s own password") { token } }',
      {},
      { cookie: stolen },
    );
    expect(codes(changed.body as never)).toEqual(['BAD_USER_INPUT']);
    const me = await post('{ me { twoFactorEnabled } }', {}, { cookie: stolen });
    expect(me.body.data!.me.twoFactorEnabled).toBe(true);
  });

  it('held by the team policy at enrolment, an old session confirms first and then enrols', async () => {
    const held = await member('held@example.com');
    const cookie = await signIn('held@example.com', held.password);
    const em = admin.services.db.em.fork();
    await em.getConnection().execute('update team_policy set require_second_factor = true');
    try {
      await age('held@example.com', 11);
      const refused = await post('mutation { startTwoFactorEnrolment { secret } }', {}, { cookie });
      expect(codes(refused.body as never)).toEqual(['RECENT_SIGN_IN_REQUIRED']);
      expect(codes((await post('{ sites { id } }', {}, { cookie })).body as never)).toEqual([
        'SECOND_FACTOR_ENROLMENT_REQUIRED',
      ]);
      const confirmed = await post(CONFIRM_PASSWORD, { password: held.password }, { cookie });
      expect(confirmed.body.errors).toBeUndefined();
      const started = await post(
        'mutation { startTwoFactorEnrolment { secret } }',
        {},
        { cookie: cookieOf(confirmed) },
      );
      expect(started.body.errors).toBeUndefined();
    } finally {
      await em.getConnection().execute('update team_policy set require_second_factor = false');
    }
  });

  it('as an API token never does any of it, nor confirms: an integration token proves nothing about its holder', async () => {
    const token = await admin.login();
    const apiToken = (await admin.gql(CREATE_TOKEN, {}, token)).data!.createApiToken.token as string;
    for (const [field, call] of Object.entries(CALLS)) {
      // updateMember is an ADMIN token's too: setup as code grants site access with one.
      const expected = field === 'updateMember' ? [] : ['FORBIDDEN'];
      const { query, variables } = call();
      expect([field, codes(await admin.gql(query, variables, apiToken))]).toEqual([field, expected]);
    }
    expect(codes(await admin.gql(CONFIRM_PASSWORD, { password: ADMIN_PASSWORD }, apiToken))).toEqual(['FORBIDDEN']);
  });

  it("cannot change the account's e-mail: no operation does", async () => {
    const schema = await post(
      '{ a: __type(name: "UpdateAccountInput") { inputFields { name } } m: __type(name: "UpdateMemberInput") { inputFields { name } } }',
      {},
      { authorization: `Bearer ${await admin.login()}` },
    );
    const fields = [...schema.body.data!.a.inputFields, ...schema.body.data!.m.inputFields].map(
      (field: { name: string }) => field.name,
    );
    expect(fields).not.toContain('email');
  });

  it('cannot outlast a password change, which lists the passkeys added since the last password sign-in', async () => {
    const victim = await member('victim@example.com');
    const signedInAt = new Date();
    const stolen = await signIn('victim@example.com', victim.password);
    const integration = (await post(CREATE_TOKEN, {}, { cookie: stolen })).body.data!.createApiToken.token as string;
    // Passkeys as a registration stores them: one from before that sign-in, one added after it.
    const em = admin.services.db.em.fork();
    const passkey = (name: string, createdAt: Date) =>
      em.getConnection().execute(
        `insert into passkeys (id, admin_id, name, credential_id, public_key, counter, backed_up, created_at)
           values (?, ?, ?, ?, ?, 0, false, ?)`,
        [randomUUID(), victim.id, name, randomBytes(16).toString('base64url'), 'cHVibGlj', createdAt],
      );
    await passkey('Old laptop', new Date(signedInAt.getTime() - 3_600_000));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await passkey('Added by the thief', new Date());

    // The member changes the password in another browser, signed in with the passkey they know
    // (an admin token stands in for that sign-in here; passkeys.test.ts plays it with Chromium).
    const tokenNow = createAdminTokens(admin.services.config).issue(
      victim.id,
      (await em.fork().findOneOrFail(AdminUserSchema, { id: victim.id })).passwordChangedAt,
    ).token;
    const changed = await admin.gql(
      'mutation($p: String!) { changePassword(currentPassword: $p, newPassword: "a brand new long password") { token passkeysSincePasswordSignIn { name } } }',
      { p: victim.password },
      tokenNow,
    );
    expect(changed.errors).toBeUndefined();
    expect(changed.data!.changePassword.passkeysSincePasswordSignIn).toEqual([{ name: 'Added by the thief' }]);
    // The stolen cookie and every admin token issued before are signed out.
    expect((await post('{ me { id } }', {}, { cookie: stolen })).status).toBe(401);
    expect(codes(await admin.gql('{ me { id } }', {}, tokenNow))).toEqual(['UNAUTHENTICATED']);
    // API tokens are not ended by it: they are listed for the member to revoke.
    expect((await admin.gql('{ me { email } }', {}, integration)).data!.me.email).toBe('victim@example.com');
    // A password change counts as a password sign-in: the next one lists nothing older.
    const next = await admin.gql(
      'mutation($p: String!) { changePassword(currentPassword: $p, newPassword: "yet another long password") { passkeysSincePasswordSignIn { name } } }',
      { p: 'a brand new long password' },
      changed.data!.changePassword.token,
    );
    expect(next.data!.changePassword.passkeysSincePasswordSignIn).toEqual([]);
  });

  it('records each confirmation with its method, and each refusal with its code, never the password', async () => {
    const entries = await admin.services.db.em
      .fork()
      .find(AuditEntrySchema, { action: { $in: ['confirmSignIn', 'createApiToken'] } }, { orderBy: { seq: 'asc' } });
    const confirmations = entries.filter((entry) => entry.action === 'confirmSignIn');
    expect(confirmations.filter((entry) => entry.outcome === 'success').map((entry) => entry.details?.method)).toEqual(
      expect.arrayContaining(['password', 'recovery_code']),
    );
    expect(confirmations.some((entry) => entry.outcome === 'failure' && entry.errorCode === 'BAD_USER_INPUT')).toBe(
      true,
    );
    expect(
      entries.some(
        (entry) =>
          entry.action === 'createApiToken' &&
          entry.outcome === 'failure' &&
          entry.errorCode === 'RECENT_SIGN_IN_REQUIRED',
      ),
    ).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(ADMIN_PASSWORD);
  });
});

describe(`a stolen session where the team's single sign-on policy refuses passwords, on ${testDriverName()}`, () => {
  let admin: TestAdmin;

  beforeAll(async () => {
    // No provider is reached: the policy and the e-mail's domain decide what confirms a sign-in.
    admin = await startTestAdmin({
      OIDC_ISSUER_URL: 'http://127.0.0.1:9/unreachable',
      OIDC_CLIENT_ID: 'intake',
      OIDC_ALLOWED_DOMAINS: 'example.com',
    });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('cannot confirm with the password the policy refuses: FORBIDDEN, and only the provider is offered', async () => {
    const owner = await admin.login();
    const created = await admin.gql(
      'mutation { createMember(input: { email: "sso@example.com", name: "S", role: admin, grants: [] }) { password } }',
      {},
      owner,
    );
    const password = created.data!.createMember.password as string;
    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: LOGIN, variables: { email: 'sso@example.com', password } }),
    });
    const cookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith(`${SESSION_COOKIE}=`))!
      .split(';')[0]!;
    const policy = await admin.gql('mutation { updateSsoPolicy(passwordSignIn: false) { passwordSignIn } }', {}, owner);
    expect(policy.errors).toBeUndefined();
    await admin.services.db.em
      .fork()
      .getConnection()
      .execute(
        `update admin_sessions set created_at = created_at - interval '11 minutes'
         where admin_id = (select id from admin_users where email = 'sso@example.com')`,
      );
    const post = async (query: string, variables: Record<string, unknown> = {}) =>
      (await (
        await fetch(`${admin.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ query, variables }),
        })
      ).json()) as Answer['body'];
    const refused = await post(CREATE_TOKEN);
    expect(refused.errors![0]!.extensions).toMatchObject({ code: 'RECENT_SIGN_IN_REQUIRED', methods: ['sso'] });
    const confirmed = await post(CONFIRM_PASSWORD, { password });
    expect(codes(confirmed as never)).toEqual(['FORBIDDEN']);
  });
});
