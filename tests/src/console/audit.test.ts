// The audit log in Chromium: a failed and a good sign-in, a site created and deleted in the console
// appear in the Audit log page, newest first, with who, action, object, address and outcome; the
// filters narrow the table; axe at both widths, and nothing wider than a phone's screen. Verify
// names the first entry altered with SQL, and Export downloads the log with its checkpoints.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
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
  downloadedBytes,
} from './harness.js';

describeConsole('console: the audit log', () => {
  let env: ConsoleEnvironment;
  let page: Page;

  const table = () => page.getByRole('table', { name: /Audit log entries/ });
  /** The action column of every row shown, top to bottom. */
  const actions = () => table().locator('tbody tr td:nth-child(3)').allInnerTexts();

  beforeAll(async () => {
    env = await startConsole();
    page = await env.newPage();
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('lists what was done in the console, newest first, and filters it', async () => {
    // A failed sign-in first (the page shows the refusal), then the real one.
    await page.goto(`${env.url}/sign-in`);
    await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong password 123');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText(/Invalid e-mail or password/).waitFor();
    await signIn(page, env.url);

    await page.getByRole('button', { name: 'New site' }).click();
    const dialog = page.getByRole('dialog', { name: 'New site' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Audited shop');
    await dialog.getByRole('button', { name: 'Create site' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const sites = await env.gql<{ sites: { id: string }[] }>('{ sites { id } }');
    const siteId = sites.data!.sites[0]!.id;

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await expectHeading(page, 'Audit log');
    await table().waitFor();
    // env.gql signed in once more through the API, after the console's actions.
    await expect(actions()).resolves.toEqual(['login', 'createSite', 'login', 'login']);
    const siteRow = page.getByRole('row', { name: /createSite/ });
    await expect(siteRow.innerText()).resolves.toContain(siteId);
    await expect(siteRow.innerText()).resolves.toContain(ADMIN_EMAIL);
    await expect(siteRow.innerText()).resolves.toMatch(/Succeeded/i);
    const failed = page.getByRole('row', { name: /Failed: UNAUTHENTICATED/i });
    await expect(failed.innerText()).resolves.toContain('Not signed in');
    await expect(failed.innerText()).resolves.toContain('127.0.0.1');
    await atBothWidths(page, async (width) => {
      await page.mouse.move(0, 0);
      await checkAccessibility(page, `audit log at ${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });

    // Filter by action.
    await page.getByRole('textbox', { name: 'Action' }).fill('createSite');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(pollActions(['createSite'])).resolves.toEqual(['createSite']);

    // By who: nothing matches a stranger.
    await page.getByRole('textbox', { name: 'Action' }).fill('');
    await page.getByRole('textbox', { name: /Who/ }).fill('nobody@example.com');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No entries match.').waitFor();
    await checkAccessibility(page, 'audit log, nothing matches');

    // By date: today has them all, tomorrow has none.
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(pollActions(['login', 'createSite', 'login', 'login'])).resolves.toHaveLength(4);
    const today = await page.evaluate(() => {
      const now = new Date();
      const pad = (value: number) => String(value).padStart(2, '0');
      return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    });
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To').fill(today);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(pollActions(['login', 'createSite', 'login', 'login'])).resolves.toHaveLength(4);
    const tomorrow = await page.evaluate(() => {
      const next = new Date(Date.now() + 24 * 60 * 60 * 1000);
      const pad = (value: number) => String(value).padStart(2, '0');
      return `${next.getFullYear()}-${pad(next.getMonth() + 1)}-${pad(next.getDate())}`;
    });
    await page.getByLabel('From').fill(tomorrow);
    await page.getByLabel('To').fill('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No entries match.').waitFor();
  });

  it('verifies the chain, names the first altered entry, and exports the log with a signed checkpoint', async () => {
    await page.goto(`${env.url}/audit-log`);
    await expectHeading(page, 'Audit log');
    await page.getByRole('button', { name: 'Verify' }).click();
    const intact = page.getByRole('status').filter({ hasText: 'Audit log intact' });
    await intact.waitFor();
    await expect(intact.innerText()).resolves.toMatch(/All \d+ entries match/);
    await atBothWidths(page, (width) => checkAccessibility(page, `audit log intact at ${width}`));

    // An intact log is exported with a signed checkpoint of its end.
    const signed = await exportedLines();
    expect(signed[0]).toMatchObject({ type: 'intake-audit-log', firstSeq: 1 });
    expect(signed.at(-1)).toMatchObject({ type: 'checkpoint', seq: signed[0]!.lastSeq });

    await env.sql(`update "audit_log" set "address" = '192.0.2.66' where "seq" = 2`);
    await page.reload();
    await page.getByRole('table', { name: /Audit log entries/ }).waitFor();
    await page.getByRole('button', { name: 'Verify' }).click();
    const altered = page.getByRole('alert').filter({ hasText: 'Audit log altered' });
    await altered.waitFor();
    await expect(altered.innerText()).resolves.toContain(
      'Entry 2 does not match its hash: it was changed, or moved from elsewhere in the log. The entry before it is intact.',
    );
    await expect(page.getByRole('row', { name: /Entry 2\b/ }).innerText()).resolves.toContain('192.0.2.66');
    await atBothWidths(page, async (width) => {
      await checkAccessibility(page, `audit log verified at ${width}`);
      await page.screenshot({ path: path.join(tmpdir(), `intake-audit-verify-${width}.png`), fullPage: true });
    });

    // The altered entry is exported as it now reads, with the hash it was written with, so the
    // offline verifier finds it too (shared/src/audit/offline-verifier.test.ts).
    const evidence = await exportedLines();
    const before = signed.find((line) => line.seq === 2 && line.type === 'entry');
    const after = evidence.find((line) => line.seq === 2 && line.type === 'entry');
    expect(after).toMatchObject({ address: '192.0.2.66', hash: before!.hash });
    expect(before!.address).not.toBe('192.0.2.66');
  });

  /** Clicks Export and reads the downloaded NDJSON file's lines. */
  async function exportedLines() {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.ndjson$/);
    return (await downloadedBytes(download))
      .toString('utf8')
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { type: string; seq?: number; lastSeq?: number; address?: string; hash?: string },
      );
  }

  /** The shown actions once they equal `expected` (or after a while, whatever they are). */
  async function pollActions(expected: string[]): Promise<string[]> {
    const deadline = Date.now() + 5000;
    let shown = await actions().catch(() => []);
    while (JSON.stringify(shown) !== JSON.stringify(expected) && Date.now() < deadline) {
      await page.waitForTimeout(100);
      shown = await actions().catch(() => []);
    }
    return shown;
  }
});
