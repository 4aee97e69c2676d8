// Inviting a member from the Members page in Chromium: without SMTP_URL the console says no e-mail
// was sent and shows the link with Copy; the invited member is listed as Invited with Resend
// invitation (a new link, the old one stops) and Revoke invitation. With SMTP the invitation goes
// out by e-mail through a real SMTP sink and no link is shown. (Accepting it is another page's.)
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startSmtpInbox, type SmtpInbox } from '@intake/shared/test';
import type { Page } from 'playwright-core';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  describedBy,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

const MEMBER = 'query($id: ID!) { member(id: $id) { status role grants { level site { name } } } }';
const INVITATION = 'query($token: String!) { invitation(token: $token) { email state } }';

async function openInvite(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await expectHeading(page, 'Members');
  await page.getByRole('button', { name: 'Invite member' }).click();
  return page.getByRole('dialog', { name: 'Invite member' });
}

/** The token of an invitation link (`…/invitation#<token>`). */
const tokenOf = (link: string) => new URL(link).hash.slice(1);

describeConsole('console: inviting a member without e-mail', () => {
  let env: ConsoleEnvironment;

  beforeAll(async () => {
    env = await startConsole();
    await env.createSiteAndForm('Shop');
    await env.createSiteAndForm('Blog');
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('shows the link to copy, lists them as Invited, resends a new link and revokes it', async () => {
    const page = await env.newPage();
    await signIn(page, env.url);
    const dialog = await openInvite(page);
    await atBothWidths(page, () => checkAccessibility(page, 'invite dialog'));

    // The API's objection to the address is read out with its field.
    const email = dialog.getByRole('textbox', { name: 'Email' });
    await email.fill('not an address');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.locator('input[type="email"][aria-invalid="true"]').waitFor();
    await expect(describedBy(email)).resolves.toMatch(/e-mail|address/i);

    await email.fill('dee@example.com');
    await dialog.getByRole('radio', { name: /^Member/ }).check();
    await dialog.getByRole('combobox', { name: 'Shop' }).selectOption({ label: 'Read' });
    await dialog.getByRole('button', { name: 'Send invitation' }).click();

    const linkDialog = page.getByRole('dialog', { name: 'Invitation link' });
    await linkDialog.getByText('No e-mail was sent').waitFor();
    const link = (await linkDialog.getByTestId('invitation-link').innerText()).trim();
    expect(link).toMatch(/\/invitation#.+/);
    await linkDialog.getByRole('button', { name: 'Copy' }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(link);
    await atBothWidths(page, () => checkAccessibility(page, 'invitation link dialog'));
    await linkDialog.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: /dee@example\.com/ });
    await row.getByText('Invited', { exact: true }).waitFor();
    await row.getByRole('cell', { name: 'Shop (read)', exact: true }).waitFor();
    await expect(row.getByRole('button', { name: 'Disable' }).count()).resolves.toBe(0);
    await atBothWidths(page, () => checkAccessibility(page, 'members with an invitation'));
    const listed = await env.gql('{ members { id email } }');
    const id = (listed.data!.members as { id: string; email: string }[]).find(
      (member) => member.email === 'dee@example.com',
    )!.id;
    expect((await env.gql(MEMBER, { id })).data!.member).toEqual({
      status: 'invited',
      role: 'member',
      grants: [{ level: 'read', site: { name: 'Shop' } }],
    });
    expect((await env.gql(INVITATION, { token: tokenOf(link) })).data!.invitation.state).toBe('VALID');

    // Resend: a new link; the one before stops.
    await row.getByRole('button', { name: 'Resend invitation' }).click();
    await linkDialog.getByText('No e-mail was sent').waitFor();
    const second = (await linkDialog.getByTestId('invitation-link').innerText()).trim();
    expect(second).not.toBe(link);
    await linkDialog.getByRole('button', { name: 'Done' }).click();
    expect((await env.gql(INVITATION, { token: tokenOf(link) })).data!.invitation.state).not.toBe('VALID');
    expect((await env.gql(INVITATION, { token: tokenOf(second) })).data!.invitation.state).toBe('VALID');

    // Revoke, asked first by a button named like the action.
    await row.getByRole('button', { name: 'Revoke invitation' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke the invitation of dee@example.com?' });
    await checkAccessibility(page, 'revoke invitation dialog');
    await confirm.getByRole('button', { name: 'Revoke invitation' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await env.gql(MEMBER, { id })).data!.member).toBeNull();
    await page.close();
  });
});

describeConsole('console: inviting a member by e-mail', () => {
  let env: ConsoleEnvironment;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    env = await startConsole({ SMTP_URL: inbox.url, DELIVERY_POLL_INTERVAL_MS: '100' }, { deliveryWorker: true });
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
    await inbox?.close();
  });

  it('sends the invitation through SMTP and shows no link', async () => {
    const page = await env.newPage();
    await signIn(page, env.url);
    const dialog = await openInvite(page);
    await dialog.getByRole('textbox', { name: 'Email' }).fill('eve@example.com');
    await dialog.getByRole('radio', { name: /^Admin/ }).check();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent to eve@example.com').waitFor();
    await expect(page.getByRole('dialog', { name: 'Invitation link' }).count()).resolves.toBe(0);
    const row = page.getByRole('row', { name: /eve@example\.com/ });
    await row.getByText('Invited', { exact: true }).waitFor();
    await row.getByRole('cell', { name: 'Every site', exact: true }).waitFor();
    await inbox.waitFor(1);
    expect(inbox.messages[0]!.to).toEqual(['eve@example.com']);
    expect(inbox.messages[0]!.text).toMatch(/\/invitation#/);
    await page.close();
  });
});
