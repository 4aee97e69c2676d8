// A chat webhook in Chromium: New webhook with the Format select set to Slack, no signing secret
// shown (Slack does not check one), the format on the webhook's card, and Send test bringing the
// receiver a Slack message that matches Slack's documented schema.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { chatMessageProblems, startWebhookReceiver, type WebhookReceiver } from '@intake/shared/test';
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

describeConsole('console: chat webhooks', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let receiver: WebhookReceiver;
  let siteId: string;
  let formId: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    env = await startConsole(
      { WEBHOOK_ALLOW_PRIVATE: 'true', DELIVERY_POLL_INTERVAL_MS: '100' },
      { deliveryWorker: true },
    );
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId } = await env.createSiteAndForm('Acme Shop', 'Contact'));
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
    await receiver?.close();
  });

  it('adds a Slack webhook with the Format select; its card says so and its test is a Slack message', async () => {
    const hookUrl = `${receiver.url}/services/T000/B000/XXXX`;
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/webhooks`);
    await expectHeading(page, 'Webhooks');
    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByRole('textbox', { name: 'URL' }).fill(hookUrl);
    await dialog.getByRole('combobox', { name: 'Format' }).click();
    await page.getByRole('option', { name: 'Slack', exact: true }).click();
    await expect(dialog.getByRole('combobox', { name: 'Format' }).inputValue()).resolves.toBe('Slack');
    await checkAccessibility(page, 'new webhook dialog, Slack format');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // No signing secret to keep: the platform does not check one.
    expect(await page.getByRole('dialog', { name: 'Signing secret' }).count()).toBe(0);

    const card = page.getByRole('region', { name: hookUrl });
    await card.getByText('Format: Slack', { exact: true }).waitFor();
    await atBothWidths(page, async () => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, 'webhooks, a Slack webhook');
    });
    const { data } = await env.gql<{ webhooks: { format: string }[] }>(
      'query ($formId: ID!) { webhooks(formId: $formId) { format } }',
      { formId },
    );
    expect(data!.webhooks).toEqual([{ format: 'SLACK' }]);

    await card.getByRole('button', { name: 'Send test' }).click();
    await receiver.waitFor(1);
    expect(chatMessageProblems('slack', receiver.received[0]!.json)).toEqual([]);
    expect(receiver.received[0]!.body).toContain('Test message from Intake');
    await card
      .getByRole('row', { name: /webhook\.test/ })
      .getByText('Delivered')
      .waitFor({ timeout: 30000 });
  });
});
