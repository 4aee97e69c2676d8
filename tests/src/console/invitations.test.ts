// Invitations end to end: an owner invites through the admin API, the delivery worker (running as
// `npm start` runs it) e-mails the link to a real SMTP inbox, the link is followed in Chromium, the
// person joins and lands signed in; the link used twice, an expired one and a revoked one show a page
// that says so. Everything the services logged is captured: no token and no password in it, nor in
// the audit log.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { AdminUserSchema, AuditEntrySchema, DeliverySchema } from '@intake/shared/entities';
import { startSmtpInbox, type SmtpInbox } from '@intake/shared/test';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  eventually,
  expectHeading,
  sessionCookie,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

const PASSWORD = 'my own long password';
const INVITE =
  'mutation($email: String!, $role: MemberRole!) { inviteMember(input: { email: $email, role: $role }) { emailSent link member { id } } }';

describeConsole('console: joining by invitation', () => {
  let env: ConsoleEnvironment;
  let inbox: SmtpInbox;
  const logged: string[] = [];

  /** Invites by the API and waits for the e-mail; answers the member's id and the link in the e-mail. */
  async function inviteByEmail(email: string, role = 'member'): Promise<{ id: string; link: string }> {
    const before = inbox.messages.length;
    const result = await env.gql(INVITE, { email, role });
    expect(result.errors).toBeUndefined();
    expect(result.data!.inviteMember).toMatchObject({ emailSent: true, link: null });
    await inbox.waitFor(before + 1);
    const mail = inbox.messages[before]!;
    expect(mail.to).toEqual([email]);
    const link = /(http\S+\/invitation#[\w-]+)/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    return { id: result.data!.inviteMember.member.id as string, link: link! };
  }

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    const logDestination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString('utf8'));
        done();
      },
    });
    env = await startConsole(
      { SMTP_URL: inbox.url, DELIVERY_POLL_INTERVAL_MS: '100', LOG_LEVEL: 'debug' },
      { deliveryWorker: true, logDestination },
    );
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
    await inbox?.close();
  });

  it('sends the link by e-mail; following it, the person chooses a name and password and lands signed in', async () => {
    const { id, link } = await inviteByEmail('joiner@example.com');
    expect(link.startsWith(`${env.url}/invitation#`)).toBe(true);
    const token = new URL(link).hash.slice(1);
    // Sent: the outbox row no longer holds the (sealed) link.
    const outbox = async () =>
      (await env.services.db.em.fork().find(DeliverySchema, { member: id })).map((row) => [row.status, row.payload]);
    expect(await eventually(outbox, [['succeeded', null]])).toEqual([['succeeded', null]]);

    const page = await env.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(link);
    await expectHeading(page, 'Join the team');
    await page.getByText('joiner@example.com').waitFor();
    await atBothWidths(page, async (width) => {
      await checkAccessibility(page, `invitation page at ${width}`);
      await page.screenshot({ path: `/tmp/intake-invitation-${width}.png`, fullPage: true });
    });
    // A password the API refuses is said at the field.
    await page.getByRole('textbox', { name: 'Name' }).fill('Jo Iner');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByText('Must be between 12 and 1024 characters').waitFor();

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Join' }).click();
    await expectHeading(page, 'Sites');
    expect(await sessionCookie(env.context)).toBeDefined();
    await page.getByText('joiner@example.com').first().waitFor();
    // The token travelled in the fragment and the GraphQL body only: no URL the browser asked for holds it.
    expect(requested.filter((url) => url.includes(token))).toEqual([]);

    // The link used twice: a page that says so, and nobody joins with it.
    await page.goto(link);
    await expectHeading(page, 'This invitation was already used');
    await atBothWidths(page, async (width) => {
      await checkAccessibility(page, `used invitation at ${width}`);
      await page.screenshot({ path: `/tmp/intake-invitation-used-${width}.png`, fullPage: true });
    });
    await page.close();
  });

  it('shows an expired link and a revoked one as such', async () => {
    const expired = await inviteByEmail('too-late@example.com');
    await env.services.db.em
      .fork()
      .nativeUpdate(AdminUserSchema, { id: expired.id }, { invitationExpiresAt: new Date(Date.now() - 60_000) });
    const page = await env.newPage();
    await page.goto(expired.link);
    await expectHeading(page, 'This invitation has expired');
    await checkAccessibility(page, 'expired invitation');

    const revoked = await inviteByEmail('withdrawn@example.com');
    expect((await env.gql('mutation($id: ID!) { revokeInvitation(id: $id) }', { id: revoked.id })).data).toEqual({
      revokeInvitation: true,
    });
    await page.goto(revoked.link);
    await expectHeading(page, 'This invitation was revoked');

    // Opened while valid, revoked before Join: the refusal turns into the page that says why.
    const late = await inviteByEmail('revoked-meanwhile@example.com');
    await page.goto(late.link);
    await expectHeading(page, 'Join the team');
    await env.gql('mutation($id: ID!) { revokeInvitation(id: $id) }', { id: late.id });
    await page.getByRole('textbox', { name: 'Name' }).fill('Late');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Join' }).click();
    await expectHeading(page, 'This invitation was revoked');
    await page.close();
  });

  it('logged and audited no token and no password', async () => {
    const tokens = inbox.messages.map((mail) => /\/invitation#([\w-]+)/.exec(mail.text)![1]!);
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    // Debug level: every line the services wrote, the delivery worker's included.
    const logs = logged.join('');
    expect(logs).toMatch(/delivery attempt/);
    const audit = JSON.stringify(await env.services.db.em.fork().find(AuditEntrySchema, {}));
    for (const secret of [...tokens, PASSWORD]) {
      expect(logs).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
    expect(audit).toMatch(/member\.joined/);
  });
});
