// A form's webhooks in Chromium with the delivery worker running: create one pointing at a receiver on
// loopback (its secret shown once, then used by the receiver to verify signatures), send a test and a
// real submission and watch the log fill without a reload, a failing attempt and Redeliver, disable and
// enable, rotate the secret, the notification e-mail log, and Delete.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  answer,
  startSmtpInbox,
  startWebhookReceiver,
  type SmtpInbox,
  type WebhookReceiver,
} from '@intake/shared/test';
import type { Locator, Page } from 'playwright-core';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

describeConsole('console: webhooks and delivery logs', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let receiver: WebhookReceiver;
  let inbox: SmtpInbox;
  let siteId: string;
  let formId: string;
  let formCode: string;
  let hookUrl: string;

  const webhooksUrl = () => `${env.url}/sites/${siteId}/forms/${formId}/webhooks`;
  const card = (): Locator => page.getByRole('region', { name: hookUrl });
  const readSecret = async (): Promise<string> => {
    const dialog = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = (await dialog.getByTestId('webhook-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
    return secret;
  };
  // Axe sees the page as it is: keep the pointer off the buttons (their hover colours are the theme's).
  const accessible = (where: string) =>
    atBothWidths(page, async () => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, where);
    });
  const webhookRows = async () =>
    (
      await env.gql<{ webhooks: { id: string; url: string; enabled: boolean; description: string | null }[] }>(
        'query ($formId: ID!) { webhooks(formId: $formId) { id url enabled description } }',
        { formId },
      )
    ).data!.webhooks;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    inbox = await startSmtpInbox();
    hookUrl = `${receiver.url}/intake`;
    env = await startConsole(
      { WEBHOOK_ALLOW_PRIVATE: 'true', DELIVERY_POLL_INTERVAL_MS: '100', SMTP_URL: inbox.url },
      { deliveryWorker: true },
    );
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Acme Shop', 'Contact', ['team@example.com']));
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
    await receiver?.close();
    await inbox?.close();
  });

  it('creates a webhook; its signing secret is shown once, with Copy', async () => {
    await page.goto(webhooksUrl());
    await expectHeading(page, 'Webhooks');
    await page.getByText('This form has no webhooks yet').waitFor();
    await atBothWidths(page, () => checkAccessibility(page, 'webhooks, none'));

    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    // Errors next to the field: empty, then refused by the API.
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByText('Enter the URL that receives the events').waitFor();
    await dialog.getByRole('textbox', { name: 'URL' }).fill('ftp://files.example.com/drop');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.locator('.mantine-TextInput-error').first().waitFor();
    await checkAccessibility(page, 'new webhook dialog with an error');
    expect(await webhookRows()).toEqual([]);

    await dialog.getByRole('textbox', { name: 'URL' }).fill(hookUrl);
    // Stored as typed (not HTML-safe text from the gateway), so shown exactly as typed, entity and all.
    await dialog.getByRole('textbox', { name: 'Description' }).fill('CRM & mailing list (R&amp;D)');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.waitFor({ state: 'hidden' });
    receiver.secret = await readSecret();
    await atBothWidths(page, () => checkAccessibility(page, 'signing secret dialog'));
    await page.getByRole('dialog', { name: 'Signing secret' }).getByRole('button', { name: 'Done' }).click();

    await card().getByText('CRM & mailing list (R&amp;D)', { exact: true }).waitFor();
    await card().getByText('Enabled').waitFor();
    await card().getByText('Never').waitFor();
    const rows = await webhookRows();
    expect(rows).toEqual([
      expect.objectContaining({ url: hookUrl, enabled: true, description: 'CRM & mailing list (R&amp;D)' }),
    ]);
    // The secret is not shown again.
    await page.reload();
    await expectHeading(page, 'Webhooks');
    expect(await page.content()).not.toContain(receiver.secret);
  });

  it('sends a test and a real submission; both appear in the log with their attempts, without a reload', async () => {
    await card().getByRole('button', { name: 'Send test' }).click();
    await page.getByText('Test event queued').waitFor();
    await receiver.waitFor(1);
    expect(receiver.received[0]).toMatchObject({ verified: true, path: '/intake' });
    expect(receiver.received[0]!.json.type).toBe('webhook.test');
    const testRow = card().getByRole('row', { name: /webhook\.test/ });
    await testRow.getByText('Delivered').waitFor({ timeout: 30000 });
    await testRow.getByText(/#1 .* HTTP 200 .* ms/).waitFor();

    const sent = await env.sendSubmission(siteId, formCode, { name: 'Ada', message: 'Hello' });
    expect(sent.status).toBe(201);
    await receiver.waitFor(2);
    expect(receiver.received[1]).toMatchObject({ verified: true });
    expect(receiver.received[1]!.json.type).toBe('submission.created');
    const submissionRow = card().getByRole('row', { name: /submission\.created/ });
    await submissionRow.getByText('Delivered').waitFor({ timeout: 30000 });
    await card().getByText('Never').waitFor({ state: 'detached' });

    // The notification e-mail of the same submission, in its own log.
    await inbox.waitFor(1);
    const emails = page.getByRole('region', { name: 'Notification e-mails' });
    await emails.getByText('team@example.com').first().waitFor();
    await emails
      .getByRole('row', { name: /submission\.created/ })
      .getByText('Delivered')
      .waitFor({ timeout: 30000 });
    await accessible('webhooks with delivery logs');
  });

  it('shows a failed attempt with the answer, and Redeliver replays it', async () => {
    receiver.plan(answer(500, 'receiver broke'));
    const submissionRow = card().getByRole('row', { name: /submission\.created/ });
    await submissionRow.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('Delivery queued again').first().waitFor();
    await submissionRow.getByText(/#2 .* HTTP 500 .* failed/).waitFor({ timeout: 30000 });
    await submissionRow.getByText('Answer', { exact: true }).last().click();
    await submissionRow.getByText('receiver broke').waitFor();
    await card().getByText('Not failing').waitFor({ state: 'detached', timeout: 30000 });
    await accessible('webhooks with a failed attempt');

    await submissionRow.getByRole('button', { name: 'Redeliver' }).click();
    await submissionRow.getByText(/#3 .* HTTP 200 .* succeeded/).waitFor({ timeout: 30000 });
    await card().getByText('Not failing').waitFor({ timeout: 30000 });
  });

  it('disables and enables the webhook', async () => {
    await card().getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Webhook disabled').waitFor();
    await card().getByText('Disabled', { exact: true }).waitFor();
    expect(await card().getByRole('button', { name: 'Send test' }).isDisabled()).toBe(true);
    expect((await webhookRows())[0]!.enabled).toBe(false);
    await card().getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Webhook enabled').waitFor();
    await card().getByText('Enabled', { exact: true }).waitFor();
    expect((await webhookRows())[0]!.enabled).toBe(true);
  });

  it('rotates the secret after a confirmation; the new one signs the next event', async () => {
    const oldSecret = receiver.secret!;
    await card().getByRole('button', { name: 'Rotate secret' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await confirm.getByText(/stops signing at once/).waitFor();
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    const secret = await readSecret();
    expect(secret).not.toBe(oldSecret);
    receiver.secret = secret;
    await page.getByRole('dialog', { name: 'Signing secret' }).getByRole('button', { name: 'Done' }).click();

    const before = receiver.received.length;
    await card().getByRole('button', { name: 'Send test' }).click();
    await receiver.waitFor(before + 1);
    expect(receiver.received[before]).toMatchObject({ verified: true });
  });

  it('deletes the webhook after a confirmation', async () => {
    await card().getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await checkAccessibility(page, 'delete webhook dialog');
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('Webhook deleted').waitFor();
    await card().waitFor({ state: 'detached' });
    await page.getByText('This form has no webhooks yet').waitFor();
    expect(await webhookRows()).toEqual([]);
  });
});
