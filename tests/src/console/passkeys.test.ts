// Passkeys through the built console in Chromium, with the DevTools protocol's virtual authenticators
// standing in for a laptop's and a phone's (one held at a time, so which passkey answers is known):
// a member adds two from the account page, renames one, signs in with a passkey alone and with the
// password then a passkey, removes one and sees it refused though the device still holds it, and a
// member the team's policy holds adds a passkey to be let go. The audit log says how each signed in.
// The console is opened at localhost: browsers refuse passkeys on an IP address, and so does the API.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import {
  VIEWPORTS,
  checkAccessibility,
  describeConsole,
  expectHeading,
  signIn,
  startConsole,
  type ConsoleEnvironment,
} from './harness.js';

/** What a virtual authenticator holds of one passkey (WebAuthn.Credential), private key included. */
interface HeldCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
  backupEligibility?: boolean;
  backupState?: boolean;
}

/**
 * The page's one virtual authenticator: `hold` replaces it with a new one holding exactly the given
 * passkeys (none: a new device), so a sign-in can only be answered with those.
 */
class Device {
  private id: string | null = null;

  private constructor(private readonly cdp: CDPSession) {}

  static async attach(context: BrowserContext, page: Page): Promise<Device> {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    return new Device(cdp);
  }

  async hold(credentials: readonly HeldCredential[], { synced = false, verified = true } = {}): Promise<void> {
    if (this.id !== null) {
      await this.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: this.id });
    }
    const { authenticatorId } = await this.cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: verified,
        automaticPresenceSimulation: true,
        // A synced passkey: backup eligible and backed up, as a phone's platform account makes them.
        defaultBackupEligibility: synced,
        defaultBackupState: synced,
      },
    });
    this.id = authenticatorId;
    for (const credential of credentials) {
      await this.cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
    }
  }

  async credentials(): Promise<HeldCredential[]> {
    const { credentials } = await this.cdp.send('WebAuthn.getCredentials', { authenticatorId: this.id! });
    return credentials;
  }
}

interface AuditEntry {
  outcome: string;
  errorCode: string | null;
  actor: { kind: string; name: string };
  details: { method?: string } | null;
}

const STEP_MS = 30_000;

describeConsole('console: passkeys', () => {
  let env: ConsoleEnvironment;
  /** The console at localhost instead of 127.0.0.1. */
  let url: string;

  async function newMember(email: string): Promise<{ email: string; password: string }> {
    const created = await env.gql<{ createMember: { password: string } }>(
      'mutation($email: String!) { createMember(input: { email: $email, name: "Tester", role: member, grants: [] }) { password } }',
      { email },
    );
    expect(created.errors).toBeUndefined();
    return { email, password: created.data!.createMember.password };
  }

  async function enterPassword(page: Page, person: { email: string; password: string }): Promise<void> {
    await page.goto(`${url}/sign-in`);
    await page.getByRole('textbox', { name: 'Email' }).fill(person.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');
  }

  /** Adds a passkey named `name` through the "Add a passkey" dialog, on the device held now. */
  async function addPasskey(page: Page, name: string): Promise<void> {
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('button', { name: 'Create passkey' }).click();
    await page.getByText(`Passkey ${name} added`).waitFor();
    await dialog.waitFor({ state: 'detached' });
  }

  async function screenshots(page: Page, name: string): Promise<void> {
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(300);
      await page.screenshot({ path: `/tmp/passkeys-${name}-${viewport.width}.png`, fullPage: true });
    }
    await page.setViewportSize(VIEWPORTS.desktop);
  }

  async function passkeySignIns(): Promise<AuditEntry[]> {
    const log = await env.gql<{ auditLog: { edges: { node: AuditEntry }[] } }>(
      '{ auditLog(first: 50, filter: { action: "finishPasskeySignIn" }) { edges { node { outcome errorCode actor { kind name } details } } } }',
    );
    expect(log.errors).toBeUndefined();
    // Newest first: in the order they happened.
    return log.data!.auditLog.edges.map((edge) => edge.node).reverse();
  }

  beforeAll(async () => {
    env = await startConsole();
    url = env.url.replace('//127.0.0.1:', '//localhost:');
  });

  afterAll(async () => {
    expect(env?.problems ?? []).toEqual([]);
    await env?.close();
  });

  it('adds two passkeys, renames one, signs in with one alone and with the password then the other, and refuses a removed one', async () => {
    const ada = await newMember('ada@example.com');
    const page = await env.newPage();
    const device = await Device.attach(env.context, page);
    await signIn(page, url, ada);
    await page.getByRole('link', { name: 'Your account', exact: true }).click();
    await expectHeading(page, 'Your account');
    const passkeys = page.getByRole('region', { name: 'Passkeys' });
    await passkeys.getByText('No passkeys yet.').waitFor();

    // The laptop's passkey, then the phone's (synced), each on its own device.
    await device.hold([]);
    await addPasskey(page, 'Work laptop');
    const laptopRow = passkeys.getByRole('row', { name: /Work laptop/ });
    await laptopRow.waitFor();
    const laptop = await device.credentials();
    expect(laptop).toHaveLength(1);
    expect(laptop[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    await checkAccessibility(page, 'add-a-passkey dialog closed, one passkey');
    await device.hold([], { synced: true });
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('dialog', { name: 'Add a passkey' }).getByRole('textbox', { name: 'Name' }).waitFor();
    await checkAccessibility(page, 'add-a-passkey dialog');
    await screenshots(page, 'add-dialog');
    await page.getByRole('dialog', { name: 'Add a passkey' }).getByRole('button', { name: 'Cancel' }).click();
    await addPasskey(page, 'Phone');
    let phone = await device.credentials();
    expect(phone).toHaveLength(1);
    await expect(passkeys.getByRole('row', { name: /Phone/ }).innerText()).resolves.toContain('Synced');
    await expect(laptopRow.innerText()).resolves.not.toContain('Synced');
    await expect(laptopRow.innerText()).resolves.toContain('Never');
    await checkAccessibility(page, 'account page with two passkeys');
    await screenshots(page, 'account');

    // Renamed, and kept after a reload.
    await passkeys.getByRole('row', { name: /Phone/ }).getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename passkey' });
    await expect(rename.getByRole('textbox', { name: 'Name' }).inputValue()).resolves.toBe('Phone');
    await checkAccessibility(page, 'rename dialog');
    await rename.getByRole('textbox', { name: 'Name' }).fill('Pixel phone');
    await rename.getByRole('button', { name: 'Save passkey name' }).click();
    await rename.waitFor({ state: 'detached' });
    await page.reload();
    await passkeys.getByRole('row', { name: /Pixel phone/ }).waitFor();

    // The phone (held now) signs in alone: no e-mail, no password.
    await signOut(page);
    await checkAccessibility(page, 'sign-in page with the passkey button');
    await screenshots(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expectHeading(page, 'Sites');

    // After the password, a member with passkeys and no app gets the passkey step, without a code field.
    await signOut(page);
    await enterPassword(page, ada);
    await expectHeading(page, 'Two-factor sign-in');
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Code' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Use a recovery code' }).count()).resolves.toBe(0);
    await checkAccessibility(page, 'second-factor step with a passkey only');
    await screenshots(page, 'second-factor');
    // The phone's signature counter has grown since it was added: kept for later (an older one is refused).
    phone = await device.credentials();
    await device.hold(laptop);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expectHeading(page, 'Sites');

    // Both now show when they last signed in; the laptop's is removed after a confirmation.
    await page.getByRole('link', { name: 'Your account', exact: true }).click();
    await expect(laptopRow.innerText()).resolves.not.toContain('Never');
    await expect(passkeys.getByRole('row', { name: /Pixel phone/ }).innerText()).resolves.not.toContain('Never');
    await laptopRow.getByRole('button', { name: 'Remove' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove passkey Work laptop?' });
    await checkAccessibility(page, 'remove confirmation');
    await screenshots(page, 'remove');
    await confirm.getByRole('button', { name: 'Remove passkey' }).click();
    await laptopRow.waitFor({ state: 'detached' });
    await expect(passkeys.getByRole('row').count()).resolves.toBe(2); // the header row and the phone's

    // The laptop still holds it, and the browser signs with it: the API refuses, the page says so.
    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Could not sign in with a passkey' });
    await refused.waitFor();
    await expect(refused.innerText()).resolves.toContain('Passkey sign-in failed');
    await checkAccessibility(page, 'sign-in page after a refused passkey');
    await screenshots(page, 'refused');
    await expectHeading(page, 'Sign in');

    // A ceremony the device fails (it cannot check who is there): the alert says why, nothing breaks.
    await device.hold(phone, { verified: false });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Could not sign in with a passkey' })
      .filter({ hasText: 'cancelled or timed out' })
      .waitFor();
    await device.hold(await device.credentials());
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expectHeading(page, 'Sites');
    await page.close();

    const entries = await passkeySignIns();
    expect(entries.map(({ outcome, errorCode, actor, details }) => ({ outcome, errorCode, actor, details }))).toEqual([
      {
        outcome: 'SUCCESS',
        errorCode: null,
        actor: { kind: 'ADMIN', name: ada.email },
        details: { method: 'passkey' },
      },
      {
        outcome: 'SUCCESS',
        errorCode: null,
        actor: { kind: 'ADMIN', name: ada.email },
        details: { method: 'password+passkey' },
      },
      {
        outcome: 'FAILURE',
        errorCode: 'UNAUTHENTICATED',
        actor: { kind: 'ANONYMOUS', name: expect.any(String) },
        details: { method: 'passkey' },
      },
      {
        outcome: 'SUCCESS',
        errorCode: null,
        actor: { kind: 'ADMIN', name: ada.email },
        details: { method: 'passkey' },
      },
    ]);
  });

  it("lets a member the team's policy holds go once they add a passkey, and offers both a code and a passkey to one who has both", async () => {
    // The owner has a second factor (an app, set up through the API) before requiring one.
    const started = await env.gql<{ startTwoFactorEnrolment: { secret: string } }>(
      'mutation { startTwoFactorEnrolment { secret } }',
    );
    const app = (secret: string) =>
      new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const confirmed = await env.gql('mutation($code: String!) { confirmTwoFactor(code: $code) { codes } }', {
      code: app(started.data!.startTwoFactorEnrolment.secret).generate(),
    });
    expect(confirmed.errors).toBeUndefined();
    const policy = await env.gql(
      'mutation { updateTeamPolicy(input: { requireSecondFactor: true }) { requireSecondFactor } }',
    );
    expect(policy.errors).toBeUndefined();

    const cy = await newMember('cy@example.com');
    const page = await env.newPage();
    const device = await Device.attach(env.context, page);
    await device.hold([]);
    await enterPassword(page, cy);
    await expectHeading(page, 'Two-factor sign-in');
    const held = page.getByRole('status').filter({ hasText: 'Your team requires two-factor sign-in' });
    await held.waitFor();
    const alternative = page.getByRole('region', { name: 'Or add a passkey' });
    await checkAccessibility(page, 'two-factor page holding a member, with the passkey alternative');
    await screenshots(page, 'held');
    await alternative.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Security key');
    await dialog.getByRole('button', { name: 'Create passkey' }).click();
    await held.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Sites' }).click();
    await expectHeading(page, 'Sites');

    // Cy sets up the app too: after the password, both a code and a passkey are offered.
    await page.getByRole('link', { name: 'Two-factor sign-in' }).click();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
    if (STEP_MS - (Date.now() % STEP_MS) < 10_000) {
      await page.waitForTimeout(STEP_MS - (Date.now() % STEP_MS) + 250);
    }
    await page.getByRole('textbox', { name: 'Code' }).fill(app(secret).generate());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await signOut(page);
    await enterPassword(page, cy);
    await expectHeading(page, 'Two-factor sign-in');
    await page.getByRole('textbox', { name: 'Code' }).waitFor();
    await page.getByRole('button', { name: 'Use a recovery code' }).waitFor();
    await checkAccessibility(page, 'second-factor step with a code and a passkey');
    await screenshots(page, 'both');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expectHeading(page, 'Sites');
    await page.close();

    const last = (await passkeySignIns()).at(-1)!;
    expect({ actor: last.actor.name, details: last.details, outcome: last.outcome }).toEqual({
      actor: cy.email,
      details: { method: 'password+passkey' },
      outcome: 'SUCCESS',
    });
  });
});
