// The Members page in Chromium: an owner changes a member's role and site access, disables, enables
// and removes them, and is offered nothing on their own row but a link to their account; an admin is
// offered nothing that touches an owner.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { graphqlRequest } from '@intake/shared/test';
import type { Page } from 'playwright-core';
import {
  ADMIN_EMAIL,
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

const CREATE_MEMBER = 'mutation($input: CreateMemberInput!) { createMember(input: $input) { password member { id } } }';
const MEMBER = 'query($id: ID!) { member(id: $id) { role status grants { level site { name } } } }';

describeConsole('console: members', () => {
  let env: ConsoleEnvironment;
  let shop: string;
  let blog: string;

  async function createMember(
    email: string,
    name: string,
    role: string,
    grants: { siteId: string; level: string }[] = [],
  ): Promise<{ id: string; password: string }> {
    const result = await env.gql(CREATE_MEMBER, { input: { email, name, role, grants } });
    expect(result.errors).toBeUndefined();
    return { id: result.data!.createMember.member.id, password: result.data!.createMember.password };
  }

  async function openMembers(page: Page): Promise<void> {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    await expectHeading(page, 'Members');
  }

  beforeAll(async () => {
    env = await startConsole();
    shop = (await env.createSiteAndForm('Shop')).siteId;
    blog = (await env.createSiteAndForm('Blog')).siteId;
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it("changes a member's role and site access, disables, enables and removes them", async () => {
    const ada = await createMember('ada@example.com', 'Ada', 'member', [{ siteId: shop, level: 'read' }]);
    const page = await env.newPage();
    await signIn(page, env.url);
    await openMembers(page);
    const row = page.getByRole('row', { name: /ada@example\.com/ });
    await row.getByRole('cell', { name: 'Shop (read)', exact: true }).waitFor();
    await expect(row.getByRole('cell', { name: 'Member', exact: true }).count()).resolves.toBe(1);
    await row.getByText('Active', { exact: true }).waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'members'));

    // Site access: read on Shop becomes none, Blog is managed.
    await row.getByRole('button', { name: 'Change access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change access of Ada' });
    await expect(dialog.getByRole('radio', { name: /^Member/ }).isChecked()).resolves.toBe(true);
    await dialog.getByRole('combobox', { name: 'Shop' }).selectOption({ label: 'No access' });
    await dialog.getByRole('combobox', { name: 'Blog' }).selectOption({ label: 'Manage' });
    await atBothWidths(page, () => checkAccessibility(page, 'change access dialog'));
    await dialog.getByRole('button', { name: 'Save access' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByRole('cell', { name: 'Blog (manage)', exact: true }).waitFor();
    expect((await env.gql(MEMBER, { id: ada.id })).data!.member.grants).toEqual([
      { level: 'manage', site: { name: 'Blog' } },
    ]);

    // Role: an admin reaches every site, and the site choices go.
    await row.getByRole('button', { name: 'Change access' }).click();
    await dialog.getByRole('radio', { name: /^Admin/ }).check();
    await expect(dialog.getByRole('combobox', { name: 'Blog' }).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Save access' }).click();
    await row.getByRole('cell', { name: 'Every site', exact: true }).waitFor();
    await expect(row.getByRole('cell', { name: 'Admin', exact: true }).count()).resolves.toBe(1);
    expect((await env.gql(MEMBER, { id: ada.id })).data!.member).toMatchObject({ role: 'admin', grants: [] });

    // Disable, asked first by a button named like the action; their password stops signing in.
    await row.getByRole('button', { name: 'Disable' }).click();
    const disable = page.getByRole('dialog', { name: 'Disable Ada?' });
    await checkAccessibility(page, 'disable dialog');
    await disable.getByRole('button', { name: 'Disable member' }).click();
    await row.getByText('Disabled', { exact: true }).waitFor();
    const refused = await graphqlRequest(
      env.url,
      'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
      { email: 'ada@example.com', password: ada.password },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    await row.getByRole('button', { name: 'Enable' }).click();
    await row.getByText('Active', { exact: true }).waitFor();
    expect((await env.gql(MEMBER, { id: ada.id })).data!.member.status).toBe('active');

    await row.getByRole('button', { name: 'Remove' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove Ada?' });
    await checkAccessibility(page, 'remove dialog');
    await remove.getByRole('button', { name: 'Remove member' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await env.gql(MEMBER, { id: ada.id })).data!.member).toBeNull();
    await page.close();
  });

  it('names oneself by e-mail when no name is set, and offers no change of one’s own access', async () => {
    const page = await env.newPage();
    await signIn(page, env.url);
    await openMembers(page);
    const own = page.getByRole('row', { name: new RegExp(ADMIN_EMAIL) });
    await own.getByText('(you)').waitFor();
    // The row's header cell names the member: their e-mail while they have no name, never a dash.
    await expect(own.getByRole('rowheader').innerText()).resolves.toBe(`${ADMIN_EMAIL} (you)`);
    for (const name of ['Change access', 'Remove', 'Disable']) {
      await expect(own.getByRole('button', { name }).count()).resolves.toBe(0);
    }
    await expect(own.getByText('Only an owner changes an owner').count()).resolves.toBe(0);
    // One's name and sign-in are on one's own page.
    await own.getByRole('link', { name: 'Your account' }).click();
    await expectHeading(page, 'Your account');
    await page.close();
  });

  it('offers an admin no action on an owner and no owner role to give', async () => {
    const bea = await createMember('bea@example.com', 'Bea', 'admin');
    await createMember('cy@example.com', 'Cy', 'member', [{ siteId: blog, level: 'read' }]);
    await env.context.clearCookies();
    const page = await env.newPage();
    await signIn(page, env.url, { email: 'bea@example.com', password: bea.password });
    await openMembers(page);
    const owner = page.getByRole('row', { name: new RegExp(ADMIN_EMAIL) });
    await owner.getByText('Only an owner changes an owner').waitFor();
    await expect(owner.getByRole('button').count()).resolves.toBe(0);

    const cy = page.getByRole('row', { name: /cy@example\.com/ });
    await cy.getByRole('button', { name: 'Change access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change access of Cy' });
    await dialog.getByRole('radio', { name: /^Admin/ }).waitFor();
    await expect(dialog.getByRole('radio', { name: /^Owner/ }).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await atBothWidths(page, () => checkAccessibility(page, 'members as an admin'));
    await page.close();
    await env.context.clearCookies();
  });
});
