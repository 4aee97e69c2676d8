// A forgotten password and a lost phone over a listening admin API with the delivery worker and a
// real SMTP inbox: "Forgot password?" e-mails a single-use link (the same answer for an unknown
// address), the link sets a password, ends the member's sessions, dies after use or expiry, and the
// second factor is still asked; a recovery-code sign-in says how many codes are left; a member held
// by the team's rule cannot remove their last factor; owners and admins reset by rank; the audit log
// shows each step and never the token or the password.
import { request as httpRequest } from 'node:http';
import { jest } from '@jest/globals';
import { authenticatorCode, codes, ensureAdmin, RESET_ANSWER_FLOOR_MS } from '@intake/admin-api/test';
import { startAdmin } from '@intake/admin-api';
import { hashInvitationToken } from '@intake/shared/delivery';
import { AuditEntrySchema, DeliverySchema, PasswordResetSchema } from '@intake/shared/entities';
import {
  createTestServices,
  graphqlRequest,
  startSmtpInbox,
  testDriverName,
  type SmtpInbox,
} from '@intake/shared/test';
import { createDeliveryWorker, type DeliveryWorker } from '@intake/worker';

jest.setTimeout(120_000);

const OWNER = { email: 'owner@example.com', password: 'a long enough owner password' };
const NEW_PASSWORD = 'a brand new password 42';
const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';
const VERIFY =
  'mutation($challenge: String!, $code: String!) { verifySecondFactor(challenge: $challenge, code: $code) { token recoveryCodesLeft } }';
const REQUEST = 'mutation($email: String!) { requestPasswordReset(email: $email) }';
const RESET = 'mutation($token: String!, $password: String!) { resetPassword(token: $token, newPassword: $password) }';

let services: Awaited<ReturnType<typeof createTestServices>>;
let admin: Awaited<ReturnType<typeof startAdmin>>;
let worker: DeliveryWorker;
let inbox: SmtpInbox;
let ownerToken: string;

const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>, token?: string) =>
  graphqlRequest<T>(admin.url, query, variables, token);

interface Person {
  id: string;
  email: string;
  password: string;
}

async function createPerson(email: string, role = 'member'): Promise<Person> {
  const result = await gql(
    'mutation($input: CreateMemberInput!) { createMember(input: $input) { password member { id email } } }',
    { input: { email, name: email, role, grants: [] } },
    ownerToken,
  );
  expect(result.errors).toBeUndefined();
  const { password, member } = result.data!.createMember;
  return { id: member.id, email: member.email, password };
}

async function passwordToken(email: string, password: string): Promise<string> {
  const result = await gql(LOGIN, { email, password });
  expect(result.errors).toBeUndefined();
  return result.data!.login.token as string;
}

/** Turns two-factor sign-in on for the signed-in member: its secret and recovery codes. */
async function enrol(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await gql('mutation { startTwoFactorEnrolment { secret } }', {}, token);
  const secret = started.data!.startTwoFactorEnrolment.secret as string;
  const confirmed = await gql(
    'mutation($code: String!) { confirmTwoFactor(code: $code) { codes } }',
    { code: authenticatorCode(secret, -1) },
    token,
  );
  expect(confirmed.errors).toBeUndefined();
  return { secret, recoveryCodes: confirmed.data!.confirmTwoFactor.codes as string[] };
}

/** The challenge `login` answers a member with a second factor. */
async function challengeFor(email: string, password: string): Promise<string> {
  const result = await gql(LOGIN, { email, password });
  expect(codes(result)).toEqual(['SECOND_FACTOR_REQUIRED']);
  return result.errors![0]!.extensions!.challenge as string;
}

/** The console's origin as configured: with nothing set, localhost on the port the admin listens on. */
const configuredOrigin = () => `http://localhost:${new URL(admin.url).port}`;

/** The token of the reset link in the e-mail number `index` (`…/reset-password#<token>`). */
async function linkTokenOf(index: number): Promise<string> {
  await inbox.waitFor(index + 1);
  const match = /(\S+\/reset-password#([\w-]{43}))\s/.exec(inbox.messages[index]!.text);
  expect(match).not.toBeNull();
  expect(match![1]!.startsWith(`${configuredOrigin()}/reset-password#`)).toBe(true);
  return match![2]!;
}

/** POSTs a GraphQL request with the Host header an attacker chooses (fetch would not send it). */
function requestWithHost(host: string, query: string, variables: Record<string, unknown>): Promise<number> {
  const body = JSON.stringify({ query, variables });
  const { hostname, port } = new URL(admin.url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { hostname, port, path: '/graphql', method: 'POST', headers: { host, 'content-type': 'application/json' } },
      (response) => response.resume().on('end', () => resolve(response.statusCode ?? 0)),
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  services = await createTestServices({
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    SMTP_URL: inbox.url,
    DELIVERY_POLL_INTERVAL_MS: '50',
  });
  await ensureAdmin(services);
  admin = await startAdmin(services);
  worker = createDeliveryWorker(services, { publicAdminOrigin: () => admin.url });
  worker.start();
  ownerToken = await passwordToken(OWNER.email, OWNER.password);
});

afterAll(async () => {
  await worker?.close();
  await admin?.close();
  await services?.close();
  await inbox?.close();
});

describe(`account recovery on ${testDriverName()}`, () => {
  it('e-mails a single-use link, sets the password with it, ends the sessions and still asks for the second factor', async () => {
    const options = await gql('{ signInOptions { passwordResetByEmail } }');
    expect(options.data!.signInOptions.passwordResetByEmail).toBe(true);
    const dee = await createPerson('dee@example.com');
    const { secret, recoveryCodes } = await enrol(await passwordToken(dee.email, dee.password));
    const signedIn = await gql(VERIFY, {
      challenge: await challengeFor(dee.email, dee.password),
      code: authenticatorCode(secret),
    });
    const session = signedIn.data!.verifySecondFactor.token as string;
    // A code, not a recovery code: nothing to count.
    expect(signedIn.data!.verifySecondFactor.recoveryCodesLeft).toBeNull();

    // The same answer for an unknown address, and an e-mail only to the member.
    const unknown = await gql(REQUEST, { email: 'nobody@example.com' });
    const known = await gql(REQUEST, { email: ' Dee@Example.com ' });
    const answer = ({ status, data, errors }: typeof known) => ({ status, data, errors });
    expect(answer(unknown)).toEqual(answer(known));
    expect(answer(known)).toEqual({ status: 200, data: { requestPasswordReset: true }, errors: undefined });
    const token = await linkTokenOf(0);
    expect(inbox.messages[0]!.to).toEqual([dee.email]);
    expect(inbox.messages[0]!.text).toMatch(/works once/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(inbox.messages).toHaveLength(1);

    // Only the token's hash is stored; the sealed link is wiped once sent.
    const em = services.db.em.fork();
    const row = await em.findOneOrFail(PasswordResetSchema, { admin: dee.id });
    expect(row.tokenHash).toBe(hashInvitationToken(token));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(30 * 60 * 1000);
    const deliveries = await em.find(DeliverySchema, { member: dee.id });
    expect(deliveries.map((delivery) => [delivery.status, delivery.payload])).toEqual([['succeeded', null]]);

    // A password that breaks the rules changes nothing and keeps the link.
    expect(codes(await gql(RESET, { token, password: 'short' }))).toEqual(['BAD_USER_INPUT']);
    expect((await gql(RESET, { token, password: NEW_PASSWORD })).data).toEqual({ resetPassword: true });
    // Used once only; the member's sessions ended.
    const again = await gql(RESET, { token, password: 'yet another password 1' });
    expect(codes(again)).toEqual(['BAD_USER_INPUT']);
    expect(again.errors![0]!.message).toMatch(/reset link/);
    expect(codes(await gql('{ me { id } }', {}, session))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(LOGIN, { email: dee.email, password: dee.password }))).toEqual(['UNAUTHENTICATED']);

    // The new password, then the second factor still: a recovery code, and how many are left.
    const recovered = await gql(VERIFY, {
      challenge: await challengeFor(dee.email, NEW_PASSWORD),
      code: recoveryCodes[0],
    });
    expect(recovered.errors).toBeUndefined();
    expect(recovered.data!.verifySecondFactor.recoveryCodesLeft).toBe(recoveryCodes.length - 1);

    // The audit log says who asked and who set a password, never the token or the password.
    const entries = await em.find(AuditEntrySchema, { action: { $in: ['requestPasswordReset', 'resetPassword'] } });
    expect(entries.map((entry) => [entry.action, entry.outcome, entry.objectId])).toEqual(
      expect.arrayContaining([
        ['requestPasswordReset', 'success', null],
        ['requestPasswordReset', 'success', dee.id],
        ['resetPassword', 'success', dee.id],
        ['resetPassword', 'failure', null],
      ]),
    );
    const logged = JSON.stringify(await em.find(AuditEntrySchema, {}));
    for (const secretValue of [token, NEW_PASSWORD, 'short', 'yet another password 1']) {
      expect(logged).not.toContain(secretValue);
    }
  });

  it("answers a member's address and an unknown one no sooner than the same floor, so timing tells nothing", async () => {
    const gustav = await createPerson('gustav@example.com');
    const before = inbox.messages.length;
    for (const email of [gustav.email, 'nobody.at.all@example.com', 'nobody.else@example.com']) {
      const started = performance.now();
      expect((await gql(REQUEST, { email })).data).toEqual({ requestPasswordReset: true });
      // A timer may fire a millisecond early; the work for a member's address happens within it.
      expect(performance.now() - started).toBeGreaterThanOrEqual(RESET_ANSWER_FLOOR_MS - 2);
    }
    await inbox.waitFor(before + 1);
  });

  it('e-mails the link to the configured address, never to a Host the asker forged', async () => {
    const eve = await createPerson('eve.target@example.com');
    const before = inbox.messages.length;
    // Reset-link poisoning: whoever asks sets Host to their own server, hoping the member clicks.
    expect(await requestWithHost('attacker.example', REQUEST, { email: eve.email })).toBe(200);
    await inbox.waitFor(before + 1);
    const mail = inbox.messages[before]!;
    expect(mail.to).toEqual([eve.email]);
    expect(mail.text).not.toContain('attacker.example');
    expect(mail.text).toContain(`${configuredOrigin()}/reset-password#`);
  });

  it('refuses an expired link and one replaced by a newer one, and limits asks per address', async () => {
    const eve = await createPerson('eve@example.com');
    const before = inbox.messages.length;
    await gql(REQUEST, { email: eve.email });
    const first = await linkTokenOf(before);
    await gql(REQUEST, { email: eve.email });
    const second = await linkTokenOf(before + 1);
    expect(codes(await gql(RESET, { token: first, password: NEW_PASSWORD }))).toEqual(['BAD_USER_INPUT']);
    await services.db.em
      .fork()
      .nativeUpdate(
        PasswordResetSchema,
        { tokenHash: hashInvitationToken(second) },
        { expiresAt: new Date(Date.now() - 1000) },
      );
    expect(codes(await gql(RESET, { token: second, password: NEW_PASSWORD }))).toEqual(['BAD_USER_INPUT']);
    expect(await passwordToken(eve.email, eve.password)).toEqual(expect.any(String));
    // Three asks per address within the window: the fourth is refused, known address or not.
    expect((await gql(REQUEST, { email: eve.email })).data).toEqual({ requestPasswordReset: true });
    expect(codes(await gql(REQUEST, { email: eve.email }))).toEqual(['RATE_LIMITED']);
  });

  it('lets an owner or an admin reset a member below them, signed in, and says so in the audit log', async () => {
    const fay = await createPerson('fay@example.com');
    const ada = await createPerson('ada@example.com', 'admin');
    const adaToken = await passwordToken(ada.email, ada.password);
    const before = inbox.messages.length;
    const sent = await gql(
      'mutation($id: ID!) { resetMemberPassword(id: $id) { link emailSent expiresAt } }',
      { id: fay.id },
      adaToken,
    );
    expect(sent.errors).toBeUndefined();
    expect(sent.data!.resetMemberPassword).toMatchObject({ link: null, emailSent: true });
    await linkTokenOf(before);
    expect(inbox.messages[before]!.to).toEqual([fay.email]);

    // An admin never resets an owner or another admin; nobody resets themselves here.
    const owner = await gql('{ me { id } }', {}, ownerToken);
    for (const [id, code] of [
      [owner.data!.me.id, 'FORBIDDEN'],
      [ada.id, 'BAD_USER_INPUT'],
    ] as const) {
      expect(codes(await gql('mutation($id: ID!) { resetMemberTwoFactor(id: $id) { id } }', { id }, adaToken))).toEqual(
        [code],
      );
      expect(
        codes(await gql('mutation($id: ID!) { resetMemberPassword(id: $id) { emailSent } }', { id }, adaToken)),
      ).toEqual([code]);
    }
    const reset = await gql(
      'mutation($id: ID!) { resetMemberTwoFactor(id: $id) { id twoFactorEnabled } }',
      { id: fay.id },
      adaToken,
    );
    expect(reset.data!.resetMemberTwoFactor).toEqual({ id: fay.id, twoFactorEnabled: false });
    const actions = (await services.db.em.fork().find(AuditEntrySchema, { objectId: fay.id })).map((entry) => [
      entry.action,
      entry.actorName,
    ]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['member.passwordResetSent', ada.email],
        ['member.twoFactorReset', ada.email],
      ]),
    );
  });

  it('keeps the last second factor of a member the team rule holds', async () => {
    const gus = await createPerson('gus@example.com');
    const gusToken = await passwordToken(gus.email, gus.password);
    const { secret } = await enrol(gusToken);
    const policy =
      'mutation($on: Boolean) { updateTeamPolicy(input: { requireSecondFactor: $on }) { requireSecondFactor } }';
    await enrol(ownerToken);
    expect((await gql(policy, { on: true }, ownerToken)).errors).toBeUndefined();
    const disable = await gql(
      'mutation($code: String!) { disableTwoFactor(code: $code) }',
      { code: authenticatorCode(secret) },
      gusToken,
    );
    expect(codes(disable)).toEqual(['FORBIDDEN']);
    expect(disable.errors![0]!.message).toMatch(/requires two-factor/);
    expect((await gql('{ me { twoFactorEnabled } }', {}, gusToken)).data!.me.twoFactorEnabled).toBe(true);
    // Once the rule is lifted, they may.
    expect((await gql(policy, { on: false }, ownerToken)).errors).toBeUndefined();
    const lifted = await gql(
      'mutation($code: String!) { disableTwoFactor(code: $code) }',
      { code: authenticatorCode(secret) },
      gusToken,
    );
    expect(lifted.errors).toBeUndefined();
  });
});
