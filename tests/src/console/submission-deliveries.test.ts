// What became of a submission, in Chromium with the delivery worker running: a form whose webhook
// answers 500 gets the failing-notifications notice once three attempts in a row have failed; the
// submission's page shows its failed webhook delivery (the receiver's host and the reason, not the
// URL's secret path) beside its notification e-mail, and Redeliver replays it until it is delivered;
// a reader of the site sees the deliveries and the notice, without Redeliver or the Webhooks link.
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

describeConsole('console: a submission’s deliveries', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let receiver: WebhookReceiver;
  let inbox: SmtpInbox;
  let siteId: string;
  let formId: string;
  let formCode: string;
  const submissionIds: string[] = [];

  const notice = (): Locator => page.getByRole('status').filter({ hasText: 'Notifications of this form are failing' });
  const deliveries = (): Locator => page.getByRole('region', { name: 'Deliveries' });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.fallback = answer(500, 'receiver broke');
    inbox = await startSmtpInbox();
    env = await startConsole(
      { WEBHOOK_ALLOW_PRIVATE: 'true', DELIVERY_POLL_INTERVAL_MS: '100', SMTP_URL: inbox.url },
      { deliveryWorker: true },
    );
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Acme Shop', 'Contact', ['team@example.com']));
    const created = await env.gql<{ createWebhook: { secret: string } }>(
      'mutation ($formId: ID!, $url: String!) { createWebhook(input: { formId: $formId, url: $url }) { secret } }',
      { formId, url: `${receiver.url}/intake/tok_secretpath` },
    );
    receiver.secret = created.data!.createWebhook.secret;
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
    await receiver?.close();
    await inbox?.close();
  });

  it('flags the form once its webhook has failed three times in a row', async () => {
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}`);
    await expectHeading(page, 'Submissions');
    for (const name of ['Ada', 'Grace', 'Edsger']) {
      const sent = await env.sendSubmission(siteId, formCode, { name, message: 'Hello' });
      expect(sent.status).toBe(201);
      submissionIds.push(((await sent.json()) as { id: string }).id);
    }
    await receiver.waitFor(3);
    await notice().waitFor({ timeout: 30000 });
    await notice()
      .getByText(/webhook to 127\.0\.0\.1:\d+: 3 attempts in a row failed \(HTTP 500\)/)
      .waitFor();
    await notice().getByRole('link', { name: 'Open the webhooks and their delivery logs' }).waitFor();
    expect(await notice().innerText()).not.toContain('tok_secretpath');
    await atBothWidths(page, () => checkAccessibility(page, 'submissions with the failing notice'));
  });

  it("shows the submission's failed delivery and its e-mail, and Redeliver replays it", async () => {
    await inbox.waitFor(3);
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/submissions/${submissionIds[0]}`);
    await expectHeading(page, 'Submission');
    const webhookRow = deliveries().getByRole('row', { name: /Webhook to 127\.0\.0\.1/ });
    await webhookRow.getByText('Pending').waitFor();
    await webhookRow.getByText('HTTP 500').waitFor();
    await webhookRow.getByText(/^Next try /).waitFor();
    const emailRow = deliveries().getByRole('row', { name: 'Notification e-mail to 1 recipient' });
    await emailRow.getByText('Delivered').waitFor({ timeout: 30000 });
    const text = await deliveries().innerText();
    for (const hidden of ['tok_secretpath', 'team@example.com', 'receiver broke']) {
      expect(text).not.toContain(hidden);
    }
    await page.mouse.move(0, 0);
    await atBothWidths(page, () => checkAccessibility(page, 'submission with a failed delivery'));

    receiver.fallback = answer(200);
    const before = receiver.received.length;
    await webhookRow.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('Delivery queued again').first().waitFor();
    await receiver.waitFor(before + 1);
    expect(receiver.received[before]).toMatchObject({ verified: true });
    expect(receiver.received[before]!.json.type).toBe('submission.created');
    await webhookRow.getByText('Delivered').waitFor({ timeout: 30000 });
    expect(await webhookRow.getByText('HTTP 500').count()).toBe(0);
    // Its newest attempt succeeded: the webhook no longer keeps failing.
    await notice().waitFor({ state: 'detached', timeout: 30000 });
  });

  it('shows a reader of the site the deliveries and the notice, without Redeliver or the Webhooks link', async () => {
    receiver.fallback = answer(500, 'receiver broke');
    const before = receiver.received.length;
    for (const name of ['Barbara', 'Frances', 'Niklaus']) {
      expect((await env.sendSubmission(siteId, formCode, { name, message: 'Hello' })).status).toBe(201);
    }
    await receiver.waitFor(before + 3);
    const created = await env.gql<{ createMember: { password: string } }>(
      'mutation ($input: CreateMemberInput!) { createMember(input: $input) { password } }',
      { input: { email: 'reader@example.com', name: 'Reader', role: 'member', grants: [{ siteId, level: 'read' }] } },
    );
    await env.context.clearCookies();
    const reader = await env.newPage();
    await signIn(reader, env.url, { email: 'reader@example.com', password: created.data!.createMember.password });
    await reader.goto(`${env.url}/sites/${siteId}/forms/${formId}/submissions/${submissionIds[0]}`);
    await expectHeading(reader, 'Submission');
    const section = reader.getByRole('region', { name: 'Deliveries' });
    await section
      .getByRole('row', { name: /Webhook to 127\.0\.0\.1/ })
      .getByText('Delivered')
      .waitFor();
    const failing = reader.getByRole('status').filter({ hasText: 'Notifications of this form are failing' });
    await failing.getByText('Someone who manages this site can check').waitFor({ timeout: 30000 });
    expect(await failing.getByRole('link').count()).toBe(0);
    expect(await section.getByRole('button', { name: 'Redeliver' }).count()).toBe(0);
    await atBothWidths(reader, () => checkAccessibility(reader, 'submission deliveries for a reader'));
    await reader.close();
  });
});
