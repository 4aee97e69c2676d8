// Static sites (issue #35, docs/static-sites.md) in a real Chromium: pages served from another
// loopback origin (127.0.0.2, and 127.0.0.3 for a site the forms do not list) post straight to the
// gateway on 127.0.0.1. Plain forms without JavaScript (urlencoded, multipart with a PNG) end on the
// thank-you address with the submission stored; the enhanced form shows a refused field beside it,
// then stores, the widget solving the challenge in the page; a page on an origin that is not listed
// stores nothing and the browser shows the refusal; the HTML of the API view works pasted as it is;
// and no page, script or answer ever holds the API key or the site token.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import { jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { startGateway } from '@intake/gateway';
import { StoredFileSchema, SubmissionSchema } from '@intake/shared/entities';
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  createTestServices,
  describeWithRealPart,
  graphqlRequest,
} from '@intake/shared/test';
import { png } from '@intake/test-files';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

jest.setTimeout(180_000);

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };
const ASSETS = new URL('../../../gateway/dist/public/altcha.js', import.meta.url);

function unavailable(): string | undefined {
  if (!existsSync(CHROMIUM_PATH)) {
    return `no Chromium at ${CHROMIUM_PATH}`;
  }
  if (!existsSync(ASSETS)) {
    return "the gateway's browser scripts are not built (gateway/dist/public): run `npm run build`";
  }
  return undefined;
}

const reason = unavailable();
const require = createRequire(import.meta.url);

/**
 * axe-core in the page (evaluated over the DevTools protocol, which the page's strict CSP does not
 * govern): the serious and critical violations, by rule and element.
 */
async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(await readFile(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as any).axe as { run(context: Document): Promise<{ violations: any[] }> };
    const { violations } = await axe.run(document);
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node: any) => node.html).join(', ')}`);
  });
}

/** A static site: pages by path, on one loopback address. */
async function staticSite(
  host: string,
): Promise<{ origin: string; pages: Map<string, string>; close(): Promise<void> }> {
  const pages = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const page = pages.get(new URL(request.url ?? '/', 'http://x').pathname);
    response.writeHead(page === undefined ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://${host}:${port}`,
    pages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
}

describeWithRealPart(
  "static sites: forms that post from the visitor's browser",
  reason === undefined ? { available: true, value: undefined } : { available: false, reason, placeholder: undefined },
  () => {
    let services: Awaited<ReturnType<typeof createTestServices>>;
    let gateway: Awaited<ReturnType<typeof startGateway>>;
    let admin: Awaited<ReturnType<typeof startAdmin>>;
    let browser: Browser;
    let site: Awaited<ReturnType<typeof staticSite>>;
    let elsewhere: Awaited<ReturnType<typeof staticSite>>;
    let adminToken: string;
    let siteId: string;
    let siteToken: string;
    const apiKey = randomBytes(32).toString('base64url');
    /** Every body the browser received, to look for the key and the token. */
    const received: string[] = [];

    async function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
      const result = await graphqlRequest<T>(admin.url, query, variables, adminToken);
      expect(result.errors).toBeUndefined();
      return result.data!;
    }

    /** A form of the site taking browser posts from `origin`, with these settings. */
    async function form(input: Record<string, unknown>): Promise<{ id: string; code: string }> {
      const created = await gql<{ createForm: { id: string; code: string } }>(
        'mutation($siteId: ID!) { createForm(input: { siteId: $siteId, name: "Contact" }) { id code } }',
        { siteId },
      );
      const { id, code } = created.createForm;
      await gql('mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { id } }', {
        id,
        input: { browserPosting: true, browserOrigins: [site.origin], browserChallengeDifficulty: 20, ...input },
      });
      return { id, code };
    }

    async function stored(formId: string) {
      const em = services.db.em.fork();
      const rows = await em.find(SubmissionSchema, { form: formId }, { orderBy: { createdAt: 'asc' } });
      const files = await em.find(StoredFileSchema, { submission: { $in: rows.map((row) => row.id) } });
      return rows.map((row) => ({
        data: row.data,
        spam: row.spam,
        spamReason: row.spamReason,
        files: files.filter((file) => file.submission.id === row.id).map((file) => [file.name, file.mimeType]),
      }));
    }

    async function newPage(javaScript: boolean): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({ javaScriptEnabled: javaScript, acceptDownloads: true });
      context.setDefaultTimeout(60_000);
      context.on('response', (response) => {
        void response.text().then(
          (text) => received.push(text),
          () => undefined,
        );
      });
      return { context, page: await context.newPage() };
    }

    function sendUrl(code: string): string {
      return `${gateway.url}/api/v1/send/${code}`;
    }

    beforeAll(async () => {
      services = await createTestServices({
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        API_KEY: apiKey,
        BROWSER_POSTS_PER_MINUTE: '0',
        BROWSER_FORM_POSTS_PER_MINUTE: '0',
      });
      await ensureAdmin(services);
      gateway = await startGateway(services);
      admin = await startAdmin(services, { gatewayUrl: gateway.url });
      const login = await graphqlRequest<{ login: { token: string } }>(
        admin.url,
        'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
        { e: ADMIN.email, p: ADMIN.password },
      );
      adminToken = login.data!.login.token;
      site = await staticSite('127.0.0.2');
      elsewhere = await staticSite('127.0.0.3');
      const created = await gql<{ createSite: { id: string } }>(
        'mutation { createSite(input: { name: "Bakery Müller" }) { id } }',
      );
      siteId = created.createSite.id;
      siteToken = (
        await gql<{ siteApiView: { token: string } }>('query($id: ID!) { siteApiView(siteId: $id) { token } }', {
          id: siteId,
        })
      ).siteApiView.token;
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await site?.close();
      await elsewhere?.close();
      await admin?.close();
      await gateway?.close();
      await services?.close();
    }, 60_000);

    it('takes a plain urlencoded form without JavaScript and sends the browser on to the thank-you address', async () => {
      const target = await form({
        browserChallenge: 'OFF',
        confirmChallengeOff: true,
        browserThankYouUrls: [`${site.origin}/thanks.html`],
      });
      site.pages.set('/thanks.html', html('Thank you', '<p>We will call you back.</p>'));
      site.pages.set(
        '/plain.html',
        html(
          'Contact',
          `<form action="${sendUrl(target.code)}" method="post">
            <label>Name <input name="name"></label>
            <label>Message <textarea name="message"></textarea></label>
            <button>Send</button></form>`,
        ),
      );
      const { context, page } = await newPage(false);
      await page.goto(`${site.origin}/plain.html`);
      await page.getByLabel('Name').fill('Ada');
      await page.getByLabel('Message').fill('Bread on Friday?');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL(`${site.origin}/thanks.html`);
      await expect(page.getByText('We will call you back.').isVisible()).resolves.toBe(true);
      expect(await stored(target.id)).toEqual([
        { data: { name: 'Ada', message: 'Bread on Friday?' }, spam: false, spamReason: null, files: [] },
      ]);
      await context.close();
    });

    it("takes a multipart form with a PNG without JavaScript, and Intake's thank-you page offers the receipt", async () => {
      const target = await form({ browserChallenge: 'OFF', confirmChallengeOff: true });
      site.pages.set(
        '/upload.html',
        html(
          'Send a photo',
          `<form action="${sendUrl(target.code)}" method="post" enctype="multipart/form-data">
            <label>Name <input name="name"></label>
            <label>Photo <input type="file" name="photo"></label>
            <button>Send</button></form>`,
        ),
      );
      const { context, page } = await newPage(false);
      await page.goto(`${site.origin}/upload.html`);
      await page.getByLabel('Name').fill('Grace');
      await page.getByLabel('Photo').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png() });
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL(new RegExp(`^${gateway.url}/api/v1/thanks/${target.code}\\?receipt=`));
      await expect(page.getByRole('heading', { name: 'Thank you' }).isVisible()).resolves.toBe(true);
      const text = await page.locator('main').innerText();
      expect(text).toContain('Bakery Müller');
      expect(text).toContain('dot.png');
      expect(await stored(target.id)).toEqual([
        { data: { name: 'Grace' }, spam: false, spamReason: null, files: [['dot.png', 'image/png']] },
      ]);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download your receipt' }).click(),
      ]);
      const row = await services.db.em.fork().findOneOrFail(SubmissionSchema, { form: target.id });
      expect(download.suggestedFilename()).toBe(`receipt-${row.id}.jws`);
      expect(await readFile((await download.path())!, 'utf8')).toBe(row.receipt);
      await context.close();
    });

    it('with the script, shows a refused field beside it, then stores once the widget solved the challenge', async () => {
      const target = await form({
        fields: [
          { name: 'name', type: 'TEXT', required: true },
          { name: 'age', type: 'NUMBER' },
        ],
      });
      site.pages.set(
        '/enhanced.html',
        html(
          'Join the club',
          `<form action="${sendUrl(target.code)}" method="post" enctype="multipart/form-data" data-intake-form>
            <p><label for="name">Name</label> <input id="name" name="name" required></p>
            <p><label for="age">Age</label> <input id="age" name="age"></p>
            <p><label for="photo">Photo</label> <input id="photo" type="file" name="photo"></p>
            <altcha-widget challenge="${gateway.url}/api/v1/challenge/${target.code}" name="altcha" auto="onsubmit"></altcha-widget>
            <button type="submit">Send</button>
            <p data-intake-status role="status"></p>
          </form>
          <script src="${gateway.url}/browser/altcha.js" defer></script>
          <script src="${gateway.url}/browser/intake-form.js" defer></script>`,
        ),
      );
      const { context, page } = await newPage(true);
      const progress: number[] = [];
      await page.exposeFunction('reportProgress', (value: number) => progress.push(value));
      await page.addInitScript(() => {
        // Records what the form's progress bar shows while the upload runs (after the script set it).
        const send = XMLHttpRequest.prototype.send;
        XMLHttpRequest.prototype.send = function (body) {
          this.upload.addEventListener('progress', () => {
            const bar = document.querySelector('form progress') as HTMLProgressElement | null;
            (window as any).reportProgress(bar ? bar.value : -1);
          });
          return send.call(this, body);
        };
      });
      await page.goto(`${site.origin}/enhanced.html`);
      await page.getByLabel('Name').fill('Ada');
      await page.getByLabel('Age').fill('older than the hills');
      await page.getByRole('button', { name: 'Send' }).click();
      const refusal = page.locator('[data-intake-error]');
      await refusal.waitFor();
      expect(await refusal.innerText()).toContain('age: must be a number');
      expect(await page.getByLabel('Age').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('status').innerText()).toBe('Please correct the marked fields.');
      expect(await stored(target.id)).toEqual([]);
      await page.getByLabel('Age').fill('36');
      await page.getByLabel('Photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png() });
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL(new RegExp(`^${gateway.url}/api/v1/thanks/${target.code}\\?receipt=`));
      // Stored, not as spam: the challenge (required) was answered by the widget in the page.
      expect(await stored(target.id)).toEqual([
        { data: { name: 'Ada', age: 36 }, spam: false, spamReason: null, files: [['me.png', 'image/png']] },
      ]);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)).toBe(100);
      await context.close();
    });

    it('stores nothing from a page on an origin the form does not list, and the browser shows the refusal', async () => {
      const open = await form({ browserChallenge: 'OFF', confirmChallengeOff: true });
      const guarded = await form({});
      elsewhere.pages.set(
        '/plain.html',
        html(
          'Copied form',
          `<form action="${sendUrl(open.code)}" method="post"><input name="message" aria-label="Message"><button>Send</button></form>`,
        ),
      );
      elsewhere.pages.set(
        '/enhanced.html',
        html(
          'Copied form',
          `<form action="${sendUrl(open.code)}" method="post" data-intake-form><input name="message" aria-label="Message"><button>Send</button><p data-intake-status role="status"></p></form>
           <form action="${sendUrl(guarded.code)}" method="post" data-intake-form id="guarded"><input name="message" aria-label="Guarded message"><altcha-widget challenge="${gateway.url}/api/v1/challenge/${guarded.code}" auto="onsubmit"></altcha-widget><button>Send guarded</button><p data-intake-status role="status" id="guarded-status"></p></form>
           <script src="${gateway.url}/browser/altcha.js" defer></script>
           <script src="${gateway.url}/browser/intake-form.js" defer></script>`,
        ),
      );
      const plain = await newPage(false);
      await plain.page.goto(`${elsewhere.origin}/plain.html`);
      await plain.page.getByLabel('Message').fill('from a copy');
      await plain.page.getByRole('button', { name: 'Send' }).click();
      await plain.page.waitForURL(sendUrl(open.code));
      expect(await plain.page.getByRole('alert').innerText()).toContain(
        `Pages on ${elsewhere.origin} may not post to this form.`,
      );
      await plain.context.close();

      const enhanced = await newPage(true);
      await enhanced.page.goto(`${elsewhere.origin}/enhanced.html`);
      await enhanced.page.getByLabel('Message', { exact: true }).fill('from a copy, with fetch');
      await enhanced.page.getByRole('button', { name: 'Send', exact: true }).click();
      await enhanced.page
        .getByText('Not sent: Intake could not be reached, or this page may not post to this form.')
        .first()
        .waitFor();
      await enhanced.page.getByLabel('Guarded message').fill('and with the challenge');
      await enhanced.page.getByRole('button', { name: 'Send guarded' }).click();
      await enhanced.page.locator('#guarded-status', { hasText: 'Not sent' }).waitFor();
      await enhanced.context.close();
      expect(await stored(open.id)).toEqual([]);
      expect(await stored(guarded.id)).toEqual([]);
    });

    it('takes the HTML form of the API view pasted as it is, with JavaScript and without', async () => {
      const required = await form({});
      const withoutChallenge = await form({ browserChallenge: 'OFF', confirmChallengeOff: true });
      const view = await gql<{ siteApiView: { forms: { code: string; browserFormHtml: string | null }[] } }>(
        'query($id: ID!) { siteApiView(siteId: $id) { forms { code browserFormHtml } } }',
        { id: siteId },
      );
      const snippet = (code: string) => view.siteApiView.forms.find((entry) => entry.code === code)!.browserFormHtml!;
      site.pages.set('/pasted.html', html('Contact us', snippet(required.code)));
      site.pages.set('/pasted-plain.html', html('Contact us', snippet(withoutChallenge.code)));

      const scripted = await newPage(true);
      await scripted.page.goto(`${site.origin}/pasted.html`);
      await scripted.page.getByLabel('Name').fill('Ada');
      await scripted.page.getByLabel('Email').fill('ada@example.org');
      await scripted.page.getByLabel('Message').fill('Pasted as it is');
      await scripted.page
        .getByLabel('Attachment')
        .setInputFiles({ name: 'plan.png', mimeType: 'image/png', buffer: png() });
      await scripted.page.getByRole('button', { name: 'Send' }).click();
      await scripted.page.waitForURL(new RegExp(`^${gateway.url}/api/v1/thanks/${required.code}\\?receipt=`));
      await scripted.context.close();
      expect(await stored(required.id)).toEqual([
        {
          data: { name: 'Ada', email: 'ada@example.org', message: 'Pasted as it is' },
          spam: false,
          spamReason: null,
          files: [['plan.png', 'image/png']],
        },
      ]);

      // Without JavaScript the challenge cannot be answered: the page says so, and so does the refusal.
      const noScript = await newPage(false);
      await noScript.page.goto(`${site.origin}/pasted.html`);
      expect(await noScript.page.locator('form').innerText()).toContain('Sending this form needs JavaScript');
      await noScript.page.getByLabel('Name').fill('Bob');
      await noScript.page.getByLabel('Email').fill('bob@example.org');
      await noScript.page.getByLabel('Message').fill('No script here');
      await noScript.page.getByRole('button', { name: 'Send' }).click();
      await noScript.page.waitForURL(sendUrl(required.code));
      expect(await noScript.page.getByRole('alert').innerText()).toContain('this form needs JavaScript to send');
      // A form whose owner turned the challenge off takes the same pasted HTML without JavaScript.
      await noScript.page.goto(`${site.origin}/pasted-plain.html`);
      await noScript.page.getByLabel('Name').fill('Bob');
      await noScript.page.getByLabel('Email').fill('bob@example.org');
      await noScript.page.getByLabel('Message').fill('No script here');
      await noScript.page
        .getByLabel('Attachment')
        .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png() });
      await noScript.page.getByRole('button', { name: 'Send' }).click();
      await noScript.page.waitForURL(new RegExp(`^${gateway.url}/api/v1/thanks/${withoutChallenge.code}\\?receipt=`));
      await noScript.context.close();
      expect(await stored(required.id)).toHaveLength(1);
      expect(await stored(withoutChallenge.id)).toEqual([
        {
          data: { name: 'Bob', email: 'bob@example.org', message: 'No script here' },
          spam: false,
          spamReason: null,
          files: [['dot.png', 'image/png']],
        },
      ]);
    });

    it("shows a refusal page naming each field and a thank-you page, both accessible, in the form's language", async () => {
      const target = await form({
        browserChallenge: 'OFF',
        confirmChallengeOff: true,
        fields: [
          { name: 'email', type: 'EMAIL', required: true },
          { name: 'guests', type: 'NUMBER' },
        ],
        browserTexts: { language: 'de', title: 'Danke', errorTitle: 'Nicht gesendet', back: 'Zurück zum Formular' },
      });
      site.pages.set(
        '/booking.html',
        html(
          'Book a table',
          `<form action="${sendUrl(target.code)}" method="post">
            <label>E-mail <input name="email"></label>
            <label>Guests <input name="guests"></label>
            <button>Book</button></form>`,
        ),
      );
      const { context, page } = await newPage(true);
      await page.goto(`${site.origin}/booking.html`);
      await page.getByLabel('E-mail').fill('not an address');
      await page.getByLabel('Guests').fill('four');
      await page.getByRole('button', { name: 'Book' }).click();
      await page.waitForURL(sendUrl(target.code));
      const alert = await page.getByRole('alert').innerText();
      expect(alert).toContain('Nicht gesendet');
      expect(alert).toContain('email: must be an e-mail address');
      expect(alert).toContain('guests: must be a number');
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      expect(await accessibilityProblems(page)).toEqual([]);
      // The back link returns to the form (history.back()), where the browser kept what was typed.
      await page.getByRole('link', { name: 'Zurück zum Formular' }).click();
      await page.waitForURL(`${site.origin}/booking.html`);
      await page.getByLabel('E-mail').fill('ada@example.org');
      await page.getByLabel('Guests').fill('4');
      await page.getByRole('button', { name: 'Book' }).click();
      await page.waitForURL(new RegExp(`^${gateway.url}/api/v1/thanks/${target.code}\\?receipt=`));
      await page.getByRole('heading', { name: 'Danke' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(await stored(target.id)).toEqual([
        { data: { email: 'ada@example.org', guests: 4 }, spam: false, spamReason: null, files: [] },
      ]);
      await context.close();
    });

    it('never shows the API key or the site token in any page, script or answer', async () => {
      expect(received.length).toBeGreaterThan(20);
      expect(received.filter((body) => body.includes(apiKey))).toEqual([]);
      expect(received.filter((body) => body.includes(siteToken))).toEqual([]);
      for (const page of [...site.pages.values(), ...elsewhere.pages.values()]) {
        expect(page).not.toContain(apiKey);
        expect(page).not.toContain(siteToken);
      }
    });
  },
);
