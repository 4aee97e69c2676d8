// Spam protection in Chromium with the real gateway and delivery worker: a honeypot field and a
// blocked word set in the form's settings; a good submission and two spam ones all answered 201 alike;
// the spam is kept out of the inbox and away from the webhook receiver and shown in the Spam view with
// its reason; Not spam moves one to the inbox (seen without a reload) and delivers it; Delete removes
// the other; new spam shows in the Spam tab's count and list without a reload.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startWebhookReceiver, type WebhookReceiver } from '@intake/shared/test';
import type { Page } from 'playwright-core';
import {
  atBothWidths,
  checkAccessibility,
  describeConsole,
  describedBy,
  eventually,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

interface StoredSubmission {
  id: string;
  spam: boolean;
  spamReason: string | null;
  data: Record<string, unknown>;
}

describeConsole('console: spam protection and the Spam view', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let receiver: WebhookReceiver;
  let siteId: string;
  let formId: string;
  let formCode: string;

  const formUrl = (view = '') => `${env.url}/sites/${siteId}/forms/${formId}${view}`;
  // Axe sees the page as it is: keep the pointer off the buttons (their hover colours are the theme's).
  const accessible = (where: string) =>
    atBothWidths(page, async () => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, where);
    });
  const submissions = async (spam: boolean): Promise<StoredSubmission[]> => {
    const result = await env.gql<{ submissions: { edges: { node: StoredSubmission }[] } }>(
      'query ($formId: ID!, $spam: Boolean) { submissions(formId: $formId, first: 100, spam: $spam) { edges { node { id spam spamReason data } } } }',
      { formId, spam },
    );
    return result.data!.submissions.edges.map((edge) => edge.node);
  };
  const names = async (spam: boolean) => (await submissions(spam)).map((row) => row.data.name).sort();
  const createdEvents = () =>
    receiver.received.filter((hook) => hook.json?.type === 'submission.created').map((hook) => hook.json);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    env = await startConsole(
      { WEBHOOK_ALLOW_PRIVATE: 'true', DELIVERY_POLL_INTERVAL_MS: '100' },
      { deliveryWorker: true },
    );
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Acme Shop'));
    const hook = await env.gql<{ createWebhook: { webhook: { id: string }; secret: string } }>(
      'mutation ($formId: ID!, $url: String!) { createWebhook(input: { formId: $formId, url: $url }) { webhook { id } secret } }',
      { formId, url: `${receiver.url}/intake` },
    );
    expect(hook.errors).toBeUndefined();
    receiver.secret = hook.data!.createWebhook.secret;
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
    await receiver?.close();
  });

  it('sets a CAPTCHA secret (write-only, errors next to the fields), then a honeypot field and a blocked word', async () => {
    await page.goto(formUrl('/settings'));
    await expectHeading(page, 'Form settings');
    await page.getByRole('heading', { name: 'Spam protection' }).waitFor();
    const honeypots = page.getByRole('textbox', { name: 'Honeypot fields' });
    const words = page.getByRole('textbox', { name: 'Blocked words or phrases' });
    expect(await honeypots.inputValue()).toBe('');
    expect(await words.inputValue()).toBe('');
    expect(await page.getByRole('combobox', { name: 'CAPTCHA provider' }).inputValue()).toBe('');
    await accessible('form settings with spam protection');

    // A provider needs its secret: the page says so next to the field and sends nothing.
    await page.getByRole('combobox', { name: 'CAPTCHA provider' }).selectOption({ label: 'reCAPTCHA v3' });
    await page.getByRole('textbox', { name: 'Answer field' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Answer field' }).getAttribute('placeholder')).toBe(
      'g-recaptcha-response',
    );
    // The defaults shown are the ones the API reports in `limits`, not copies kept in the console.
    expect(await page.getByRole('textbox', { name: 'Minimum score' }).getAttribute('placeholder')).toBe('0.5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText("Enter the provider's secret key").waitFor();
    // The API's refusals show next to their fields: a secret with a space, a blocked word too long.
    await page.getByRole('combobox', { name: 'CAPTCHA provider' }).selectOption({ label: 'Cloudflare Turnstile' });
    expect(await page.getByRole('textbox', { name: 'Answer field' }).getAttribute('placeholder')).toBe(
      'cf-turnstile-response',
    );
    const secret = page.getByRole('textbox', { name: 'Secret key' });
    await secret.fill('not a secret');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await eventually(async () => /visible ASCII characters/.test(await describedBy(secret)), true);
    await secret.fill('0x4AAAAAAA-test-secret');
    await words.fill('x'.repeat(101));
    await page.getByRole('button', { name: 'Save settings' }).click();
    await eventually(async () => /1 to 100 characters/.test(await describedBy(words)), true);
    await words.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    // Write-only: the page says a secret is stored, the API only that there is one.
    await page.getByText('A secret is stored').waitFor();
    expect(await secret.inputValue()).toBe('');
    const captcha = await env.gql<{ form: { captchaProvider: string; captchaSecretSet: boolean } }>(
      'query ($id: ID!) { form(id: $id) { captchaProvider captchaSecretSet } }',
      { id: formId },
    );
    expect(captcha.data!.form).toEqual({ captchaProvider: 'TURNSTILE', captchaSecretSet: true });
    expect(await page.content()).not.toContain('0x4AAAAAAA-test-secret');

    // Back to no CAPTCHA: the bots in this test send no answer.
    await page.getByRole('combobox', { name: 'CAPTCHA provider' }).selectOption({ label: 'None' });
    await page.getByRole('textbox', { name: 'Secret key' }).waitFor({ state: 'detached' });

    await honeypots.fill('website');
    await words.fill('casino\nfree money');
    await page.getByRole('button', { name: 'Save settings' }).click();
    // The first save's toast may still be showing: the stored form is what tells this save is done.
    const expected = {
      honeypotFields: ['website'],
      blockedWords: ['casino', 'free money'],
      captchaProvider: null,
      captchaSecretSet: false,
      maxLinks: null,
      duplicateWindowSeconds: null,
    };
    const stored = async () =>
      (
        await env.gql<{ form: typeof expected }>(
          'query ($id: ID!) { form(id: $id) { honeypotFields blockedWords captchaProvider captchaSecretSet maxLinks duplicateWindowSeconds } }',
          { id: formId },
        )
      ).data!.form;
    expect(await eventually(stored, expected)).toEqual(expected);
    // The page shows what is stored after a reload.
    await page.reload();
    await expectHeading(page, 'Form settings');
    await eventually(() => page.getByRole('textbox', { name: 'Honeypot fields' }).inputValue(), 'website');
  });

  it('answers spam like a good submission, keeps it out of the inbox and undelivered', async () => {
    const good = await env.sendSubmission(siteId, formCode, { name: 'Ada Lovelace', message: 'Hello' });
    const trapped = await env.sendSubmission(siteId, formCode, {
      name: 'Bot One',
      website: 'https://spam.example',
      message: 'Hi',
    });
    const worded = await env.sendSubmission(siteId, formCode, { name: 'Bot Two', message: 'Best CASINO in town' });
    const bodies = [];
    for (const response of [good, trapped, worded]) {
      expect(response.status).toBe(201);
      bodies.push((await response.json()) as Record<string, unknown>);
    }
    const shape = (body: Record<string, unknown>) => Object.keys(body).sort();
    expect(shape(bodies[1]!)).toEqual(shape(bodies[0]!));
    expect(shape(bodies[2]!)).toEqual(shape(bodies[0]!));

    expect(await names(false)).toEqual(['Ada Lovelace']);
    expect(await names(true)).toEqual(['Bot One', 'Bot Two']);
    await receiver.waitFor(1);
    // A few seconds of worker polling (every 100 ms): nothing is delivered for the spam.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(createdEvents()).toHaveLength(1);
    expect(JSON.stringify(createdEvents())).toContain('Ada Lovelace');
    expect(JSON.stringify(receiver.received)).not.toContain('Bot One');
    expect(JSON.stringify(receiver.received)).not.toContain('Bot Two');
  });

  it('shows the spam with its reasons; Not spam moves one to the inbox and delivers it', async () => {
    await page.goto(formUrl('/spam'));
    await expectHeading(page, 'Spam');
    await page.getByText('kept 30 days').waitFor();
    await page.getByRole('link', { name: 'Spam (2)' }).waitFor();
    const trapped = page.getByRole('row', { name: /Bot One/ });
    const worded = page.getByRole('row', { name: /Bot Two/ });
    await trapped.getByText('Honeypot field filled').waitFor();
    await worded.getByText('Blocked word').waitFor();
    // Newest first.
    const rows = await page.getByRole('row').allInnerTexts();
    expect(rows.findIndex((text) => text.includes('Bot Two'))).toBeLessThan(
      rows.findIndex((text) => text.includes('Bot One')),
    );
    await accessible('spam view');

    // The inbox is open in a second page: it polls, so the moved submission appears without a reload.
    const inbox = await env.newPage();
    // The same browser profile: already signed in.
    await inbox.goto(formUrl());
    await expectHeading(inbox, 'Submissions');
    await inbox.getByRole('row', { name: /Ada Lovelace/ }).waitFor();
    expect(await inbox.getByRole('row', { name: /Bot Two/ }).count()).toBe(0);
    await inbox.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

    await worded.getByRole('button', { name: 'Not spam' }).click();
    await page.getByText('Moved to the inbox').waitFor();
    await worded.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Spam (1)' }).waitFor();
    await inbox.getByRole('row', { name: /Bot Two/ }).waitFor({ timeout: 30000 });
    expect(await inbox.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(
      true,
    );
    await inbox.close();
    await receiver.waitFor(2);
    expect(createdEvents()).toHaveLength(2);
    expect(JSON.stringify(createdEvents()[1])).toContain('Bot Two');
    expect(await names(false)).toEqual(['Ada Lovelace', 'Bot Two']);
  });

  it('deletes a spam submission after the confirmation', async () => {
    const trapped = page.getByRole('row', { name: /Bot One/ });
    await trapped.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this submission?' });
    await dialog.getByRole('button', { name: 'Delete submission' }).click();
    await page.getByText('Submission deleted').waitFor();
    await trapped.waitFor({ state: 'detached' });
    await page.getByText('No spam.').waitFor();
    expect(await names(true)).toEqual([]);
    expect(await names(false)).toEqual(['Ada Lovelace', 'Bot Two']);
    await accessible('spam view, empty');
    // Still nothing delivered for the deleted one.
    expect(JSON.stringify(receiver.received)).not.toContain('Bot One');
  });

  it('counts new spam in the form header and lists it, without a reload', async () => {
    await page.getByRole('link', { name: 'Spam (0)' }).waitFor();
    await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
    const response = await env.sendSubmission(siteId, formCode, { name: 'Bot Three', website: 'https://spam.example' });
    expect(response.status).toBe(201);
    await page.getByRole('link', { name: 'Spam (1)' }).waitFor({ timeout: 30000 });
    await page.getByRole('row', { name: /Bot Three/ }).waitFor({ timeout: 30000 });
    expect(await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(
      true,
    );
  });
});
