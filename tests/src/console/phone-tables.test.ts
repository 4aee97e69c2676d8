// Every table of the console on a 375 px phone and a 1440 px desktop, in Chromium, with data sent
// through the real gateway: each cell of a row can be scrolled into view beside the row's key column
// (its name, its date), which stays in place, so a row's actions, a file's Download link and SHA-256
// are never out of reach or seen without knowing whose they are; and no e-mail address is broken
// across lines ("admin@lo calhost") at either width.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  ADMIN_EMAIL,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  VIEWPORTS,
  type ConsoleEnvironment,
} from './harness.js';

/** What a table's first row shows once each of its cells is scrolled into view at the phone's width. */
interface CellReach {
  column: string;
  /**
   * Each control of the cell (each link, button, checkbox), or the cell when it has none, can be
   * scrolled to just right of the key column: wholly in the window (a text cell wider than the space
   * left may go on past it) and not covered there.
   */
  reachable: boolean;
  /** The key column of the row is still wholly in the window beside it. */
  keyInView: boolean;
}

/**
 * Scrolls the table captioned `caption` (inside its own scroll container) so each control of its
 * first body row starts just right of the row's key cell (its first), and reports per column whether
 * it can be seen and used there with the key cell still in view.
 */
async function reachCells(page: Page, caption: string): Promise<CellReach[]> {
  const table = page.locator('table', { has: page.locator('caption', { hasText: caption }) }).first();
  await table.waitFor();
  return table.evaluate((element) => {
    const viewport = element.closest('.mantine-ScrollArea-viewport') ?? element.parentElement!;
    const headers = [...element.querySelectorAll('thead th')].map((cell) => cell.textContent?.trim() ?? '');
    const cells = [...element.querySelector('tbody tr')!.children] as HTMLElement[];
    const key = cells[0]!;
    const inWindow = (rect: DOMRect) => rect.left >= -0.5 && rect.right <= window.innerWidth + 0.5;
    const reach = (target: HTMLElement, mayGoOn: boolean) => {
      // In the window's height first: a point below the fold hits nothing.
      key.scrollIntoView({ block: 'center', inline: 'nearest' });
      viewport.scrollLeft = 0;
      viewport.scrollLeft = target.getBoundingClientRect().left - key.getBoundingClientRect().right;
      const rect = target.getBoundingClientRect();
      const keyRect = key.getBoundingClientRect();
      const right = Math.min(rect.right, window.innerWidth);
      const hit = document.elementFromPoint((rect.left + right) / 2, rect.top + rect.height / 2);
      const placed =
        rect.left >= keyRect.right - 0.5 && (mayGoOn ? rect.left < window.innerWidth - 20 : inWindow(rect));
      return { reachable: placed && hit !== null && target.contains(hit), keyInView: inWindow(keyRect) };
    };
    return cells.slice(1).map((cell, index) => {
      const controls = [...cell.querySelectorAll<HTMLElement>('a, button, input')];
      const reached = controls.length > 0 ? controls.map((control) => reach(control, false)) : [reach(cell, true)];
      return {
        column: headers[index + 1] ?? String(index + 1),
        reachable: reached.every((result) => result.reachable),
        keyInView: reached.every((result) => result.keyInView),
      };
    });
  });
}

/** Every e-mail address in the text of the table captioned `caption` that the layout breaks across lines. */
async function brokenAddresses(page: Page, caption: string): Promise<string[]> {
  const table = page.locator('table', { has: page.locator('caption', { hasText: caption }) }).first();
  return table.evaluate((element) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => rect.top));
        if (lines.size > 1) {
          broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

/** The width in pixels of the column headed `header` in the table captioned `caption`, on its first row. */
async function columnWidth(page: Page, caption: string, header: string): Promise<number> {
  const table = page.locator('table', { has: page.locator('caption', { hasText: caption }) }).first();
  return table.evaluate((element, name) => {
    const headers = [...element.querySelectorAll('thead th')].map((cell) => cell.textContent?.trim() ?? '');
    const cell = element.querySelector('tbody tr')!.children[headers.indexOf(name)] as HTMLElement;
    return cell.getBoundingClientRect().width;
  }, header);
}

describeConsole('console: every table on a phone and on a desktop', () => {
  let env: ConsoleEnvironment;
  let page: Page;
  let siteId: string;
  let formId: string;
  let submissionId: string;

  beforeAll(async () => {
    // The worker tries the notification e-mail (no SMTP_URL: it fails), so the e-mail log has a row.
    env = await startConsole({ DELIVERY_POLL_INTERVAL_MS: '100' }, { deliveryWorker: true });
    page = await env.newPage();
    await signIn(page, env.url);
    const created = await env.createSiteAndForm('Acme Shop', 'Contact', ['customer-service@acme-shop.example']);
    ({ siteId, formId } = created);
    await env.gql('mutation { createApiToken(name: "Nightly export") { token } }');
    await env.gql('mutation ($id: ID!) { updateForm(id: $id, input: { honeypotFields: ["website"] }) { id } }', {
      id: formId,
    });
    const withFile = new FormData();
    withFile.append('name', 'Katherine Johnson');
    withFile.append('email', 'katherine.johnson@langley-research.example');
    withFile.append('message', 'The signed return form is attached.');
    withFile.append('attachment', new Blob(['plain notes\n'], { type: 'text/plain' }), 'return-form-signed.txt');
    const sent = await env.sendSubmission(siteId, created.formCode, withFile);
    expect(sent.status).toBe(201);
    submissionId = ((await sent.json()) as { id: string }).id;
    const spam = await env.sendSubmission(siteId, created.formCode, {
      name: 'Bot',
      email: 'offers@cheap-pills.example',
      website: 'https://spam.example',
    });
    expect(spam.status).toBe(201);
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  /** Opens `path`, waits for its table, then checks reach at 375 px and addresses at both widths. */
  const checkTable = async (path: string, heading: string, caption: string, prepare?: () => Promise<void>) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto(`${env.url}${path}`);
    await expectHeading(page, heading);
    await prepare?.();
    await page.locator('caption', { hasText: caption }).first().waitFor();
    expect({ caption, broken: await brokenAddresses(page, caption) }).toEqual({ caption, broken: [] });
    await page.setViewportSize(VIEWPORTS.phone);
    // The navigation slides away (the shell's transition) before the page has its phone layout.
    await page.waitForTimeout(600);
    await page.mouse.move(0, 0);
    const cells = await reachCells(page, caption);
    expect(cells.length).toBeGreaterThan(0);
    expect({ caption, cells }).toEqual({
      caption,
      cells: cells.map((cell) => ({ ...cell, reachable: true, keyInView: true })),
    });
    // Back at the start of the table: addresses whole on the phone too.
    await page.evaluate(() =>
      document.querySelectorAll('.mantine-ScrollArea-viewport').forEach((v) => v.scrollTo(0, 0)),
    );
    expect({ caption, broken: await brokenAddresses(page, caption) }).toEqual({ caption, broken: [] });
  };

  it('sites and forms: the row actions beside the name', async () => {
    await checkTable('/sites', 'Sites', 'Each site, its forms');
    await checkTable(`/sites/${siteId}/forms`, 'Forms', 'The forms of this site');
  });

  it('the API view and the API tokens', async () => {
    await checkTable(`/sites/${siteId}/api`, 'API', "Each form's code");
    await checkTable('/api-tokens', 'API tokens', 'API tokens that work now');
  });

  it('the members and the tokens of your account', async () => {
    await env.gql(
      'mutation { createMember(input: { email: "katherine.johnson@langley-research.example", name: "Katherine", role: member, grants: [] }) { member { id } } }',
    );
    await checkTable('/members', 'Members', "The team's members");
    await checkTable('/account', 'Your account', 'Your API tokens that work now');
  });

  it('the inbox, the Spam view, and a submission’s files with Download and SHA-256', async () => {
    await checkTable(`/sites/${siteId}/forms/${formId}`, 'Submissions', 'Submissions to this form');
    // On the phone a value's column keeps a readable width: a sentence wraps to a few lines, not to a
    // word a line down a row as tall as the screen.
    expect(await columnWidth(page, 'Submissions to this form', 'message')).toBeGreaterThanOrEqual(150);
    await checkTable(`/sites/${siteId}/forms/${formId}/spam`, 'Spam', 'Spam submissions to this form');
    await checkTable(
      `/sites/${siteId}/forms/${formId}/submissions/${submissionId}`,
      'Submission',
      'Files sent with this submission',
    );
  });

  it('a submission’s deliveries with Redeliver beside the destination', async () => {
    await checkTable(
      `/sites/${siteId}/forms/${formId}/submissions/${submissionId}`,
      'Submission',
      'Where this submission was sent',
    );
  });

  it('the notification e-mail log', async () => {
    await checkTable(`/sites/${siteId}/forms/${formId}/webhooks`, 'Webhooks', 'Notification e-mails of this form');
  });

  it('erasure and the audit log, whose addresses stay whole', async () => {
    await checkTable('/erasure', 'Erase personal data', 'Submissions holding the value', async () => {
      await page.getByRole('textbox', { name: 'Value to find' }).fill('katherine.johnson@langley-research.example');
      await page.getByRole('button', { name: 'Find' }).click();
    });
    await page.goto(`${env.url}/audit-log`);
    await page
      .getByRole('row', { name: new RegExp(ADMIN_EMAIL) })
      .first()
      .waitFor();
    await checkTable('/audit-log', 'Audit log', 'Audit log entries');
  });
});
