// A form's confirmation e-mail in Chromium (docs/confirmations.md): set in the settings' "Confirmation
// e-mail" section (on, the address field, subject, message, a safe field) and stored as typed; a
// message that would repeat a free-text field is refused by the service and nothing is stored. With
// the delivery worker running, a submission's page then shows its confirmation among its deliveries.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startSmtpInbox, type SmtpInbox } from '@intake/shared/test';
import type { Page } from 'playwright-core';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

const STORED =
  'confirmationEnabled confirmationEmailField confirmationSubject confirmationTemplate confirmationSafeFields';

describeConsole('console: the confirmation e-mail of a form', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let formCode: string;
  let inbox: SmtpInbox;

  const stored = async () =>
    (
      await env.gql<{ form: Record<string, unknown> }>(`query($id: ID!) { form(id: $id) { ${STORED} } }`, {
        id: formId,
      })
    ).data?.form;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    env = await startConsole({ DELIVERY_POLL_INTERVAL_MS: '100', SMTP_URL: inbox.url }, { deliveryWorker: true });
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Acme Shop'));
    const declared = await env.gql(
      'mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { id } }',
      {
        id: formId,
        input: {
          fields: [
            { name: 'email', type: 'EMAIL', required: true },
            { name: 'plan', type: 'CHOICE', choices: ['Basic', 'Pro'] },
            { name: 'message', type: 'TEXT' },
          ],
        },
      },
    );
    expect(declared.errors).toBeUndefined();
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
    await inbox?.close();
  });

  it('turns confirmations on with a template and a safe field', async () => {
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/settings`);
    await expectHeading(page, 'Form settings');
    await page.getByRole('heading', { name: 'Confirmation e-mail' }).waitFor();
    // Only the choice field can be marked safe: the free-text one is not offered.
    await expect(
      page.getByRole('group', { name: 'Fields safe to repeat' }).getByRole('checkbox').count(),
    ).resolves.toBe(1);
    await page.getByRole('checkbox', { name: 'Send a confirmation to the submitter' }).check();
    const section = page.getByRole('region', { name: 'Confirmation e-mail' });
    await section.getByRole('combobox', { name: 'Address field' }).click();
    await page.getByRole('option', { name: 'email' }).click();
    await section.getByRole('textbox', { name: 'Subject', exact: true }).fill('Thanks for {{form}}');
    await section.getByRole('textbox', { name: 'Message', exact: true }).fill('Your {{field:message}} arrived.');
    await section.getByRole('checkbox', { name: 'plan' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    // The service refuses a message repeating free text, and nothing is stored.
    await page.getByText('repeats the field message', { exact: false }).first().waitFor();
    expect(await stored()).toMatchObject({ confirmationEnabled: false, confirmationTemplate: null });

    await section
      .getByRole('textbox', { name: 'Message', exact: true })
      .fill('Your {{field:plan}} request arrived at {{time}}.');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    expect(await stored()).toEqual({
      confirmationEnabled: true,
      confirmationEmailField: 'email',
      confirmationSubject: 'Thanks for {{form}}',
      confirmationTemplate: 'Your {{field:plan}} request arrived at {{time}}.',
      confirmationSafeFields: ['plan'],
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Confirmation e-mail' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Send a confirmation to the submitter' }).isChecked()).toBe(true);
    await atBothWidths(page, async () => {
      await checkAccessibility(page, 'form settings with a confirmation');
    });
  });

  it("shows the confirmation on the submission's page, without the address", async () => {
    const sent = await env.sendSubmission(siteId, formCode, { email: 'ada@example.org', plan: 'Pro' });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()) as { id: string };
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/submissions/${id}`);
    const deliveries = page.getByRole('region', { name: 'Deliveries' });
    const row = deliveries.getByRole('row', { name: 'Confirmation e-mail to the submitter' });
    await row.getByText('Delivered').waitFor({ timeout: 30000 });
    expect(await deliveries.innerText()).not.toContain('ada@example.org');
    expect(inbox.messages.map((mail) => mail.to)).toEqual([['ada@example.org']]);
    await atBothWidths(page, async () => {
      await checkAccessibility(page, 'a submission with its confirmation');
    });
  });
});
