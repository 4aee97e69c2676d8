// The console with the keyboard alone, and on a 375 px screen with the navigation behind the burger.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  VIEWPORTS,
  checkAccessibility,
  describeConsole,
  eventually,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

/** The accessible name of the focused element, as a screen reader would announce it. */
async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) {
      return '';
    }
    const labelledBy = element.getAttribute('aria-labelledby');
    const label =
      element.getAttribute('aria-label') ??
      (labelledBy ? document.getElementById(labelledBy)?.textContent : undefined) ??
      (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined) ??
      element.textContent ??
      '';
    return label.replace(/\s*\*$/, '').trim();
  });
}

/** Presses Tab until the focused element is named `name` (at most `limit` times). */
async function tabTo(page: Page, name: string, limit = 30): Promise<void> {
  for (let step = 0; step < limit; step += 1) {
    await page.keyboard.press('Tab');
    if ((await focusedName(page)) === name) {
      return;
    }
  }
  throw new Error(`Tab never reached "${name}"`);
}

describeConsole('console: keyboard and small screens', () => {
  let env: ConsoleEnvironment;

  beforeAll(async () => {
    env = await startConsole();
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('signs in, creates a site and cancels a deletion with the keyboard alone', async () => {
    const page = await env.newPage();
    await page.goto(`${env.url}/sign-in`);
    await expectHeading(page, 'Sign in');
    await tabTo(page, 'Email');
    await page.keyboard.type(ADMIN_EMAIL);
    await tabTo(page, 'Password');
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await expectHeading(page, 'Sites');

    // The first stop on a page skips the header and the navigation.
    await page.keyboard.press('Tab');
    await expect(focusedName(page)).resolves.toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('main-content');

    await tabTo(page, 'New site');
    await page.keyboard.press('Enter');
    // The dialog takes the focus, on its first field.
    await page.getByRole('dialog', { name: 'New site' }).waitFor();
    await expect(focusedName(page)).resolves.toBe('Name');
    await page.keyboard.type('Keyboard shop');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'New site' }).waitFor({ state: 'hidden' });
    await page.getByRole('row', { name: /Keyboard shop/ }).waitFor();

    await tabTo(page, 'Delete');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Delete site Keyboard shop?' });
    await confirm.waitFor();
    // Cancel has the focus: Enter does not destroy anything by accident; Escape closes.
    await expect(focusedName(page)).resolves.toBe('Cancel');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    await expect(page.getByRole('row', { name: /Keyboard shop/ }).isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('at 375 px the navigation opens from the burger and closes after a choice', async () => {
    const page = await env.newPage();
    await page.setViewportSize(VIEWPORTS.phone);
    await signIn(page, env.url);
    const navigation = page.getByRole('navigation', { name: 'Main' });
    // Closed: off screen and out of the tab order.
    const placement = () =>
      navigation.evaluate((element) => ({
        right: Math.round(element.getBoundingClientRect().right),
        inert: (element as HTMLElement).inert,
      }));
    await expect(placement()).resolves.toEqual({ right: 0, inert: true });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(eventually(placement, { right: 375, inert: false })).resolves.toEqual({ right: 375, inert: false });
    await checkAccessibility(page, 'navigation open at 375 px');
    await navigation.getByRole('link', { name: 'API tokens' }).click();
    await expectHeading(page, 'API tokens');
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    // Nothing is wider than the screen but the tables' own scroll areas.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });
});
