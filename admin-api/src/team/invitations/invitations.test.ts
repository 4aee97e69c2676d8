// Invitations over a listening admin API, with real sign-ins and real API tokens: inviting (the role
// rules of createMember), the link looked up and accepted (signed in as `login` signs in), used
// twice, expired, resent (the old link dies), revoked, the attempt limit, and the audit entries
// (never the token or the password). Without SMTP the link is answered; with SMTP_URL (a real inbox
// and a real delivery worker) it is e-mailed, and the outbox row keeps it only sealed, until sent.
import { jest } from '@jest/globals';
import { hashInvitationToken, INVITATION_TTL_MS } from '@intake/shared/delivery';
import { AdminUserSchema, AuditEntrySchema, DeliverySchema } from '@intake/shared/entities';
import { startSmtpInbox, testDriverName, type SmtpInbox } from '@intake/shared/test';
import { INVITATION_MAX_PER_ADDRESS } from '../../access/login-policy.js';
import { makeSite } from '../../test/factories.js';
import { ADMIN_EMAIL, codes, startTestAdmin, type TestAdmin } from '../../test/harness.js';

jest.setTimeout(120_000);

const MEMBER_FIELDS = 'id email name role status invitedAt invitationExpiresAt grants { level site { id } }';
const INVITE = `mutation($input: InviteMemberInput!) { inviteMember(input: $input) { link emailSent member { ${MEMBER_FIELDS} } } }`;
const RESEND = `mutation($id: ID!) { resendInvitation(id: $id) { link emailSent member { ${MEMBER_FIELDS} } } }`;
const REVOKE = 'mutation($id: ID!) { revokeInvitation(id: $id) }';
const VIEW = 'query($token: String!) { invitation(token: $token) { email role state } }';
const ACCEPT = 'mutation($input: AcceptInvitationInput!) { acceptInvitation(input: $input) { token expiresAt } }';
const PASSWORD = 'a long enough password';

interface Invited {
  id: string;
  link: string;
  token: string;
}

const tokenOf = (link: string) => new URL(link).hash.slice(1);

describe(`invitations on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let ownerSession: string;

  async function invite(token: string, input: Record<string, unknown>): Promise<Invited> {
    const result = await admin.gql(INVITE, { input }, token);
    expect(result.errors).toBeUndefined();
    const { link, member } = result.data!.inviteMember;
    return { id: member.id, link, token: tokenOf(link) };
  }

  const accept = (token: string, name = 'New Person', password = PASSWORD) =>
    admin.gql(ACCEPT, { input: { token, name, password } });

  beforeAll(async () => {
    admin = await startTestAdmin();
    ownerSession = await admin.login();
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
  }, 30_000);

  it('invites with a link to copy, shows whom it is for, and signs the person in as they accept it once', async () => {
    const { site } = await makeSite(admin.services);
    const before = Date.now();
    const result = await admin.gql(
      INVITE,
      { input: { email: ' Newbie@Example.com ', role: 'member', grants: [{ siteId: site.id, level: 'read' }] } },
      ownerSession,
    );
    expect(result.errors).toBeUndefined();
    const { link, emailSent, member } = result.data!.inviteMember;
    expect(emailSent).toBe(false);
    expect(link).toMatch(new RegExp(`^${admin.url}/invitation#[\\w-]{43}$`));
    expect(member).toMatchObject({
      email: 'newbie@example.com',
      name: '',
      role: 'member',
      status: 'invited',
      grants: [{ level: 'read', site: { id: site.id } }],
    });
    const expiresAt = Date.parse(member.invitationExpiresAt);
    expect(expiresAt - Date.parse(member.invitedAt)).toBe(INVITATION_TTL_MS);
    expect(Date.parse(member.invitedAt)).toBeGreaterThanOrEqual(before - 1000);

    // Only the hash is stored.
    const token = tokenOf(link);
    const row = await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { id: member.id });
    expect(row.invitationTokenHash).toBe(hashInvitationToken(token));
    expect(JSON.stringify(row)).not.toContain(token);

    expect((await admin.gql(VIEW, { token })).data!.invitation).toEqual({
      email: 'newbie@example.com',
      role: 'member',
      state: 'VALID',
    });
    // Invited is not signed up: nobody signs in as them before they accept.
    const early = await admin.gql('mutation { login(email: "newbie@example.com", password: "x") { token } }');
    expect(codes(early)).toEqual(['UNAUTHENTICATED']);

    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: ACCEPT, variables: { input: { token, name: ' New Bie ', password: PASSWORD } } }),
    });
    const accepted = (await response.json()) as { data?: { acceptInvitation: { token: string } }; errors?: unknown };
    expect(accepted.errors).toBeUndefined();
    // Signed in exactly like `login`: a bearer token and the console's session cookie.
    expect(response.headers.get('set-cookie')).toMatch(/intake_session=[^;]+;.*httponly/i);
    const joined = accepted.data!.acceptInvitation.token;
    expect((await admin.gql('{ me { email name role } }', {}, joined)).data!.me).toEqual({
      email: 'newbie@example.com',
      name: 'New Bie',
      role: 'member',
    });
    expect(await admin.login('newbie@example.com', PASSWORD)).toEqual(expect.any(String));
    const listed = await admin.gql(
      `query($id: ID!) { member(id: $id) { ${MEMBER_FIELDS} } }`,
      { id: member.id },
      ownerSession,
    );
    expect(listed.data!.member).toMatchObject({
      status: 'active',
      invitationExpiresAt: null,
      invitedAt: member.invitedAt,
    });

    // Used twice: refused, on the token, saying so; nothing changes.
    const twice = await accept(token, 'Someone Else', 'another long password');
    expect(codes(twice)).toEqual(['BAD_USER_INPUT']);
    expect(twice.errors![0]!.extensions?.field).toBe('input.token');
    expect(twice.errors![0]!.message).toMatch(/already used/);
    expect(twice.errors![0]!.message).not.toContain(token);
    expect(
      codes(
        await admin.gql('mutation { login(email: "newbie@example.com", password: "another long password") { token } }'),
      ),
    ).toEqual(['UNAUTHENTICATED']);
    expect((await admin.gql(VIEW, { token })).data!.invitation.state).toBe('USED');
  });

  it('follows the role rules of createMember and refuses an e-mail that is already a member', async () => {
    const { site } = await makeSite(admin.services);
    const adminMember = await invite(ownerSession, { email: 'second-admin@example.com', role: 'admin' });
    expect((await accept(adminMember.token)).errors).toBeUndefined();
    const adminSession = await admin.login('second-admin@example.com', PASSWORD);

    const owner = await admin.gql(INVITE, { input: { email: 'o@example.com', role: 'owner' } }, adminSession);
    expect(codes(owner)).toEqual(['FORBIDDEN']);
    for (const [input, field] of [
      [{ email: 'g@example.com', role: 'admin', grants: [{ siteId: site.id, level: 'read' }] }, 'input.grants'],
      [{ email: ADMIN_EMAIL.toUpperCase(), role: 'member' }, 'input.email'],
      [{ email: 'second-admin@example.com', role: 'member' }, 'input.email'],
      [{ email: 'not an address', role: 'member' }, 'input.email'],
    ] as const) {
      const refused = await admin.gql(INVITE, { input }, adminSession);
      expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
      expect(refused.errors![0]!.extensions?.field).toBe(field);
    }
    // An invited e-mail is a member too.
    await invite(ownerSession, { email: 'pending@example.com', role: 'member' });
    const again = await admin.gql(INVITE, { input: { email: 'pending@example.com', role: 'member' } }, ownerSession);
    expect(again.errors![0]!.extensions?.field).toBe('input.email');
    // A member does not invite; an API token does not either (its answer would be a sign-in).
    const reader = await invite(ownerSession, { email: 'reader-inv@example.com', role: 'member' });
    expect((await accept(reader.token)).errors).toBeUndefined();
    const readerSession = await admin.login('reader-inv@example.com', PASSWORD);
    expect(
      codes(await admin.gql(INVITE, { input: { email: 'x@example.com', role: 'member' } }, readerSession)),
    ).toEqual(['FORBIDDEN']);
    const apiToken = (await admin.gql('mutation { createApiToken(name: "ci") { token } }', {}, ownerSession)).data!
      .createApiToken.token as string;
    expect(codes(await admin.gql(INVITE, { input: { email: 'x@example.com', role: 'member' } }, apiToken))).toEqual([
      'FORBIDDEN',
    ]);
    // Only an owner resends or revokes an owner's invitation.
    const invitedOwner = await invite(ownerSession, { email: 'next-owner@example.com', role: 'owner' });
    expect(codes(await admin.gql(RESEND, { id: invitedOwner.id }, adminSession))).toEqual(['FORBIDDEN']);
    expect(codes(await admin.gql(REVOKE, { id: invitedOwner.id }, adminSession))).toEqual(['FORBIDDEN']);
    expect((await admin.gql(VIEW, { token: invitedOwner.token })).data!.invitation.state).toBe('VALID');
  });

  it('leaves an invited member invited until they accept: updateMember may not change their status', async () => {
    const pending = await invite(ownerSession, { email: 'not-yet@example.com', role: 'member' });
    for (const status of ['active', 'disabled']) {
      const changed = await admin.gql(
        'mutation($id: ID!, $status: MemberStatus!) { updateMember(id: $id, input: { status: $status }) { status } }',
        { id: pending.id, status },
        ownerSession,
      );
      expect(codes(changed)).toEqual(['BAD_USER_INPUT']);
      expect(changed.errors![0]!.extensions?.field).toBe('input.status');
    }
    expect((await admin.gql(VIEW, { token: pending.token })).data!.invitation.state).toBe('VALID');
    expect((await accept(pending.token)).errors).toBeUndefined();
  });

  it('resends a new link (the old one stops working) and revokes an invitation; neither acts on a joined member', async () => {
    const first = await invite(ownerSession, { email: 'resent@example.com', name: 'Re Sent', role: 'member' });
    const resent = await admin.gql(RESEND, { id: first.id }, ownerSession);
    expect(resent.errors).toBeUndefined();
    const second = tokenOf(resent.data!.resendInvitation.link);
    expect(second).not.toBe(first.token);
    expect((await admin.gql(VIEW, { token: first.token })).data!.invitation).toEqual({
      email: null,
      role: null,
      state: 'REVOKED',
    });
    const old = await accept(first.token);
    expect(old.errors![0]!.extensions?.field).toBe('input.token');
    expect(old.errors![0]!.message).toMatch(/revoked/);
    expect((await accept(second, 'Re Sent')).errors).toBeUndefined();
    const joinedAgain = await admin.gql(RESEND, { id: first.id }, ownerSession);
    expect(codes(joinedAgain)).toEqual(['BAD_USER_INPUT']);
    expect(joinedAgain.errors![0]!.extensions?.field).toBe('id');
    expect(codes(await admin.gql(REVOKE, { id: first.id }, ownerSession))).toEqual(['BAD_USER_INPUT']);

    const revoked = await invite(ownerSession, { email: 'revoked@example.com', role: 'member' });
    expect((await admin.gql(REVOKE, { id: revoked.id }, ownerSession)).data!.revokeInvitation).toBe(true);
    expect((await admin.gql(REVOKE, { id: revoked.id }, ownerSession)).data!.revokeInvitation).toBe(false);
    expect((await admin.gql(VIEW, { token: revoked.token })).data!.invitation.state).toBe('REVOKED');
    expect((await accept(revoked.token)).errors![0]!.message).toMatch(/revoked/);
    const gone = await admin.gql('query($id: ID!) { member(id: $id) { id } }', { id: revoked.id }, ownerSession);
    expect(gone.data!.member).toBeNull();
    expect(codes(await admin.gql(RESEND, { id: revoked.id }, ownerSession))).toEqual(['NOT_FOUND']);
  });

  it('refuses an expired link and a bad name or password, changing nothing', async () => {
    const invited = await invite(ownerSession, { email: 'late-comer@example.com', role: 'member' });
    for (const [input, field] of [
      [{ token: invited.token, name: 'Late', password: 'short' }, 'input.password'],
      [{ token: invited.token, name: '   ', password: PASSWORD }, 'input.name'],
      [{ token: 'x'.repeat(101), name: 'Late', password: PASSWORD }, 'input.token'],
    ] as const) {
      const refused = await admin.gql(ACCEPT, { input });
      expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
      expect(refused.errors![0]!.extensions?.field).toBe(field);
    }
    expect((await admin.gql(VIEW, { token: invited.token })).data!.invitation.state).toBe('VALID');

    await admin.services.db.em
      .fork()
      .nativeUpdate(AdminUserSchema, { id: invited.id }, { invitationExpiresAt: new Date(Date.now() - 1000) });
    expect((await admin.gql(VIEW, { token: invited.token })).data!.invitation).toEqual({
      email: 'late-comer@example.com',
      role: 'member',
      state: 'EXPIRED',
    });
    const expired = await accept(invited.token, 'Late');
    expect(codes(expired)).toEqual(['BAD_USER_INPUT']);
    expect(expired.errors![0]!.extensions?.field).toBe('input.token');
    expect(expired.errors![0]!.message).toMatch(/expired/);
    const row = await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { id: invited.id });
    expect(row.status).toBe('invited');
    // A resend brings a fresh 72 hours.
    const resent = await admin.gql(RESEND, { id: invited.id }, ownerSession);
    expect((await accept(tokenOf(resent.data!.resendInvitation.link), 'Late')).errors).toBeUndefined();
  });

  it('records invited, resent, revoked and joined, with role and grants and never the token or the password', async () => {
    const { site } = await makeSite(admin.services);
    const grants = [{ siteId: site.id, level: 'manage' }];
    const invited = await invite(ownerSession, { email: 'audited@example.com', role: 'member', grants });
    const resent = await admin.gql(RESEND, { id: invited.id }, ownerSession);
    const token = tokenOf(resent.data!.resendInvitation.link);
    expect((await accept(token, 'Audited')).errors).toBeUndefined();
    const other = await invite(ownerSession, { email: 'audited-revoked@example.com', role: 'admin' });
    await admin.gql(REVOKE, { id: other.id }, ownerSession);

    const entries = await admin.services.db.em
      .fork()
      .find(AuditEntrySchema, { objectId: { $in: [invited.id, other.id] } }, { orderBy: { at: 'asc', id: 'asc' } });
    const ofMembers = entries
      .filter((entry) => entry.action.startsWith('member.'))
      .map((entry) => [entry.action, entry.actorName, entry.details]);
    expect(ofMembers).toEqual(
      expect.arrayContaining([
        [
          'member.invited',
          ADMIN_EMAIL,
          { email: 'audited@example.com', role: 'member', grants: [`${site.id}:manage`], emailSent: false },
        ],
        ['member.invitation_resent', ADMIN_EMAIL, { email: 'audited@example.com', emailSent: false }],
        ['member.joined', 'audited@example.com', { email: 'audited@example.com', name: 'Audited', role: 'member' }],
        [
          'member.invited',
          ADMIN_EMAIL,
          { email: 'audited-revoked@example.com', role: 'admin', grants: [], emailSent: false },
        ],
        ['member.invitation_revoked', ADMIN_EMAIL, { email: 'audited-revoked@example.com', role: 'admin' }],
      ]),
    );
    expect(ofMembers).toHaveLength(5);
    const everything = JSON.stringify(
      await admin.services.db.em.fork().find(AuditEntrySchema, {}, { orderBy: { at: 'asc' } }),
    );
    for (const secret of [token, invited.token, other.token, PASSWORD]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('limits link look-ups and acceptances per address, so tokens cannot be guessed', async () => {
    // The tests before used some of this address's attempts: guess until refused.
    let allowed = 0;
    while (allowed <= INVITATION_MAX_PER_ADDRESS) {
      const result = await admin.gql(VIEW, { token: `guess-${allowed}` });
      if (codes(result)[0] === 'RATE_LIMITED') {
        break;
      }
      expect(result.data!.invitation.state).toBe('REVOKED');
      allowed += 1;
    }
    expect(allowed).toBeLessThan(INVITATION_MAX_PER_ADDRESS);
    expect(codes(await admin.gql(VIEW, { token: 'one-more' }))).toEqual(['RATE_LIMITED']);
    expect(codes(await accept('one-more'))).toEqual(['RATE_LIMITED']);
  });
});

describe(`invitations by e-mail on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    admin = await startTestAdmin({ SMTP_URL: inbox.url, SMTP_FROM: 'intake@example.com' });
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
    await inbox?.close();
  }, 30_000);

  it('queues the e-mail in the outbox with the link only sealed, answers no link, and a resend replaces the queued e-mail', async () => {
    const owner = await admin.login();
    const result = await admin.gql(INVITE, { input: { email: 'mailed@example.com', role: 'admin' } }, owner);
    expect(result.errors).toBeUndefined();
    expect(result.data!.inviteMember).toMatchObject({ link: null, emailSent: true, member: { status: 'invited' } });
    const memberId = result.data!.inviteMember.member.id as string;
    const em = () => admin.services.db.em.fork();
    const [queued, ...others] = await em().find(DeliverySchema, { member: memberId });
    expect(others).toHaveLength(0);
    expect(queued).toMatchObject({
      channel: 'email',
      status: 'pending',
      form: null,
      recipients: ['mailed@example.com'],
    });
    expect(Object.keys(queued!.payload!)).toEqual(['sealedLink']);
    // Sealed: nothing in it that looks like a link or a token (the e-mail's arrival is in tests/src/end-to-end).
    expect(JSON.stringify(queued!.payload)).not.toMatch(/invitation|http/);

    const resent = await admin.gql(RESEND, { id: memberId }, owner);
    expect(resent.data!.resendInvitation).toMatchObject({ link: null, emailSent: true });
    const now = await em().find(DeliverySchema, { member: memberId });
    expect(now.map((delivery) => delivery.id)).not.toContain(queued!.id);
    expect(now).toHaveLength(1);
    // Revoking takes the queued e-mail with the member.
    expect((await admin.gql(REVOKE, { id: memberId }, owner)).data!.revokeInvitation).toBe(true);
    expect(await em().count(DeliverySchema, { member: memberId })).toBe(0);
    expect(inbox.messages).toHaveLength(0);
  });
});
