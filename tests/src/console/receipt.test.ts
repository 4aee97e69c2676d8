// A submission's page shows its signed receipt (issue #26): "Receipt: valid" for a submission as the
// gateway stored it, the receipt itself copyable to the clipboard, and "Receipt: does not match"
// once its data is changed in the database behind Intake's back.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
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

describeConsole('console: a submission’s receipt', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let formCode: string;

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
    await signIn(page, env.url);
    ({ siteId, formId, formCode } = await env.createSiteAndForm('Town hall'));
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  async function submit(): Promise<{ id: string; receipt: string }> {
    const response = await env.sendSubmission(siteId, formCode, { name: 'Ada', request: 'A parking permit' });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; receipt: string };
  }

  const openSubmission = async (id: string) => {
    await page.goto(`${env.url}/sites/${siteId}/forms/${formId}/submissions/${id}`);
    await expectHeading(page, 'Submission');
    return page.getByRole('region', { name: 'Receipt' });
  };

  it('says "Receipt: valid" and copies the receipt the gateway answered', async () => {
    const { id, receipt } = await submit();
    const section = await openSubmission(id);
    await section.getByText('Receipt: valid').waitFor();
    expect(await section.getByTestId('receipt').innerText()).toBe(receipt);

    await section.getByRole('button', { name: 'Copy the receipt' }).click();
    await section.getByRole('status').getByText('Copied').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(receipt);

    await page.screenshot({ path: '/tmp/h5-receipt-valid.png', fullPage: true });
    await atBothWidths(page, () => checkAccessibility(page, 'submission detail with a valid receipt'));
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: '/tmp/h5-receipt-valid-375.png', fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('says "Receipt: does not match" once the stored data was changed', async () => {
    const { id } = await submit();
    await env.execute(
      `update submissions set data = jsonb_set(data, '{request}', '"Two parking permits"') where id = ?`,
      [id],
    );
    const section = await openSubmission(id);
    await section.getByText('Receipt: does not match').waitFor();
    await section.getByText(/The stored fields are not the ones that were signed/).waitFor();
    expect(await section.getByText('Receipt: valid').count()).toBe(0);

    await page.screenshot({ path: '/tmp/h5-receipt-mismatch.png', fullPage: true });
    await atBothWidths(page, () => checkAccessibility(page, 'submission detail with a receipt that does not match'));
  });
});
