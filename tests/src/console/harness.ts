// End-to-end harness for the console: real services on a fresh test database (the admin serving the
// built console from admin-web/dist, the gateway beside it), driven by the machine's Chromium through
// playwright-core. Chromium or a console build missing: the suite is skipped with the reason, or
// fails under CI=true (CI builds the console and has Chromium, so their absence is a broken pipeline).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { startGateway } from '@intake/gateway';
import { createDeliveryWorker, createSearchIndexer, type SearchIndexer } from '@intake/worker';
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  createTestServices,
  describeWithRealPart,
  graphqlRequest,
  type GraphQLResult,
} from '@intake/shared/test';
import { chromium, type BrowserContext, type Download, type Locator, type Page } from 'playwright-core';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'correct horse battery staple';
export const SESSION_COOKIE = 'intake_session';

export { CHROMIUM_PATH };
export const CONSOLE_DIR = fileURLToPath(new URL('../../../admin-web/dist/', import.meta.url));

/** Widths the console is checked at: a desktop and a small phone. */
export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 375, height: 812 },
} as const;

const CONSOLE_TEST_TIMEOUT_MS = 180_000;

/** The run's shared Chromium (tests/console-chromium.mjs), when it has one. */
const SHARED_CHROMIUM_ENV = 'INTAKE_CONSOLE_CHROMIUM_WS';

/** Why the end-to-end suite cannot run here, or undefined when it can. */
export function consoleTestsUnavailable(): string | undefined {
  if (!existsSync(CHROMIUM_PATH)) {
    return `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium or set CHROMIUM_PATH)`;
  }
  if (!existsSync(path.join(CONSOLE_DIR, 'index.html'))) {
    return `the console is not built (${CONSOLE_DIR}index.html missing): run \`npm run build\``;
  }
  return undefined;
}

/** `describe` when Chromium and the built console are here; skipped with the reason, or failing under CI=true. */
export function describeConsole(title: string, body: () => void): void {
  const unavailable = consoleTestsUnavailable();
  if (unavailable === undefined) {
    // Starting the services and Chromium takes seconds, many more on a busy machine; jest's
    // testTimeout in a project's config is ignored (it is a global option), so it is set here.
    jest.setTimeout(CONSOLE_TEST_TIMEOUT_MS);
  }
  describeWithRealPart(
    title,
    unavailable === undefined
      ? { available: true, value: undefined }
      : { available: false, reason: unavailable, placeholder: undefined },
    body,
  );
}

export interface ConsoleEnvironment {
  /** The admin origin: the console at `/`, GraphQL at `/graphql`. */
  url: string;
  gatewayUrl: string;
  /** The gateway's API key (`X-KEY-SERVICE`), for tests that post with a token read from the console. */
  apiKey: string;
  context: BrowserContext;
  /** A fresh page at the desktop width that records script errors (see `problems`). */
  newPage(): Promise<Page>;
  /**
   * Another person's browser: a second Chromium with its own profile (cookies apart), closed with
   * the environment; its pages record script errors too.
   */
  newBrowser(): Promise<{ context: BrowserContext; newPage(): Promise<Page> }>;
  /** Page errors, console errors and Content-Security-Policy reports seen so far. */
  problems: string[];
  /** A GraphQL request with a bearer token of the bootstrap admin (to check what the UI did). */
  gql<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<GraphQLResult<T>>;
  /**
   * Sends a submission to the gateway as the site's backend would (API key + site token): `body` as
   * JSON, or a FormData sent as multipart (files included). Returns the gateway's answer.
   */
  sendSubmission(siteId: string, formCode: string, body: Record<string, unknown> | FormData): Promise<Response>;
  /** Runs SQL on the services' database, as someone with database access would (tampering tests). */
  execute(sql: string, params?: unknown[]): Promise<unknown>;
  /** The services behind the console (its database), for what no operation does (moving a row in time). */
  services: TestServices;
  /** The search indexer beside the services, as `npm start` runs it: a test may stop and start it again. */
  searchIndexer: SearchIndexer;
  /** A new site with one form, through the admin API: what most tests start from. */
  createSiteAndForm(
    siteName: string,
    formName?: string,
    notifyEmails?: string[],
  ): Promise<{ siteId: string; formId: string; formCode: string }>;
  /** Runs SQL on the services' database: how a test alters what the console then checks. */
  sql(query: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

export interface ConsoleOptions {
  /** Runs the delivery worker beside the services, as `npm start` does (webhooks, e-mails). */
  deliveryWorker?: boolean;
  /** Receives the services' log lines instead of stdout (to assert on what was logged). */
  logDestination?: NonNullable<Parameters<typeof createTestServices>[1]>['logDestination'];
  /** More Chromium switches (`--host-resolver-rules` for a proxy's host names). */
  chromiumArgs?: string[];
  /** Chromium's environment (a HOME whose NSS database trusts a test CA). */
  chromiumEnv?: Record<string, string>;
}

type TestServices = Awaited<ReturnType<typeof createTestServices>>;

/** Services, a gateway, an admin serving the console, and a Chromium with a fresh profile. */
export async function startConsole(
  env: Record<string, string> = {},
  options: ConsoleOptions = {},
): Promise<ConsoleEnvironment> {
  const apiKey = env.API_KEY ?? randomBytes(32).toString('base64url');
  const services = await createTestServices(
    { ADMIN_EMAIL, ADMIN_PASSWORD, API_KEY: apiKey, ...env },
    { logDestination: options.logDestination },
  );
  await ensureAdmin(services);
  const gateway = await startGateway(services);
  const admin = await startAdmin(services, { gatewayUrl: gateway.url });
  const worker = options.deliveryWorker
    ? createDeliveryWorker(services, {
        // The listening origin, unless a public address is configured (the proxy tests).
        publicAdminOrigin: () => (env.PUBLIC_URL || env.PUBLIC_ADMIN_URL ? admin.origins().admin : admin.url),
      })
    : undefined;
  worker?.start();
  // Always, as `npm start` runs it: new submissions become searchable within about a second.
  const searchIndexer = createSearchIndexer(services);
  searchIndexer.start();
  const { context, close: closeBrowser } = await openBrowser(options);
  context.setDefaultTimeout(30000);
  const problems: string[] = [];
  const others: OpenBrowser[] = [];
  let token: { value: string; at: number } | undefined;
  const recordProblems = (page: Page) => {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // A refused sign-in or a lost session answers 401, which Chromium logs as a failed resource.
      if (message.type() === 'error' && !/status of 401/.test(message.text())) {
        problems.push(`console error: ${message.text()}`);
      }
    });
    return page;
  };

  const gql = async <T>(query: string, variables?: Record<string, unknown>) => {
    // A fresh sign-in every five minutes: changes such as createApiToken need one from the last ten.
    if (token === undefined || Date.now() - token.at > 5 * 60_000) {
      token = { value: await bearerToken(admin.url), at: Date.now() };
    }
    return graphqlRequest<T>(admin.url, query, variables, token.value);
  };

  return {
    url: admin.url,
    gatewayUrl: gateway.url,
    apiKey,
    context,
    problems,
    gql,
    services,
    searchIndexer,
    async sendSubmission(siteId, formCode, body) {
      const view = await gql<{ siteApiView: { token: string } }>(
        'query ($siteId: ID!) { siteApiView(siteId: $siteId) { token } }',
        { siteId },
      );
      if (!view.data?.siteApiView) {
        throw new Error(`no site token: ${JSON.stringify(view.errors)}`);
      }
      const headers: Record<string, string> = {
        'X-KEY-SERVICE': apiKey,
        Authorization: `Bearer ${view.data.siteApiView.token}`,
      };
      if (!(body instanceof FormData)) {
        headers['Content-Type'] = 'application/json';
      }
      return fetch(`${gateway.url}/api/v1/send/${formCode}`, {
        method: 'POST',
        headers,
        body: body instanceof FormData ? body : JSON.stringify(body),
      });
    },
    execute: (sql, params = []) => services.db.em.getConnection().execute(sql, params),
    async createSiteAndForm(siteName, formName = 'Contact', notifyEmails = []) {
      const site = await gql<{ createSite: { id: string } }>(
        'mutation ($name: String!) { createSite(input: { name: $name }) { id } }',
        { name: siteName },
      );
      const siteId = site.data!.createSite.id;
      const form = await gql<{ createForm: { id: string; code: string } }>(
        'mutation ($siteId: ID!, $name: String!, $emails: [String!]) { createForm(input: { siteId: $siteId, name: $name, notifyEmails: $emails }) { id code } }',
        { siteId, name: formName, emails: notifyEmails },
      );
      return { siteId, formId: form.data!.createForm.id, formCode: form.data!.createForm.code };
    },
    sql: (query, params = []) => services.db.em.fork().execute(query, params),
    async newPage() {
      return recordProblems(await context.newPage());
    },
    async newBrowser() {
      const other = await openBrowser(options);
      other.context.setDefaultTimeout(30000);
      others.push(other);
      return { context: other.context, newPage: async () => recordProblems(await other.context.newPage()) };
    },
    async close() {
      await closeBrowser();
      for (const other of others) {
        await other.close();
      }
      await worker?.close();
      await searchIndexer.close();
      await admin.close();
      await gateway.close();
      await services.close();
    },
  };
}

interface OpenBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A browser of its own for one person: a fresh context in the run's shared Chromium
 * (console-chromium.mjs), or a Chromium launched with a fresh profile when the test needs its own
 * switches or environment, or when the run has no shared one (a file run outside Jest's projects).
 */
async function openBrowser(options: ConsoleOptions): Promise<OpenBrowser> {
  const contextOptions = {
    viewport: VIEWPORTS.desktop,
    // Clipboard access for the Copy buttons.
    permissions: ['clipboard-read', 'clipboard-write'],
  };
  const shared = process.env[SHARED_CHROMIUM_ENV];
  if (shared !== undefined && options.chromiumArgs === undefined && options.chromiumEnv === undefined) {
    const browser = await chromium.connect(shared);
    const context = await browser.newContext(contextOptions);
    return {
      context,
      async close() {
        await context.close().catch(() => undefined);
        await browser.close().catch(() => undefined);
      },
    };
  }
  const profileDir = await mkdtemp(path.join(tmpdir(), 'intake-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.chromiumArgs ?? [])],
    ...(options.chromiumEnv === undefined ? {} : { env: { ...process.env, ...options.chromiumEnv } }),
    ...contextOptions,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}

async function bearerToken(url: string): Promise<string> {
  const result = await graphqlRequest<{ login: { token: string } }>(
    url,
    'mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
    { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  );
  if (!result.data?.login) {
    throw new Error(`login failed: ${JSON.stringify(result.errors)}`);
  }
  return result.data.login.token;
}

/**
 * Signs in through the sign-in page at `path` (e.g. `/sign-in?next=/api-tokens`) and waits for the
 * page it leads to (`heading`, `Sites` by default).
 */
export async function signIn(
  page: Page,
  url: string,
  { email = ADMIN_EMAIL, password = ADMIN_PASSWORD, path: start = '/sign-in', heading = 'Sites' } = {},
): Promise<void> {
  await page.goto(`${url}${start}`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expectHeading(page, heading);
}

/** Waits until the page's level-1 heading is `name`. */
export async function expectHeading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/**
 * A download's bytes. Read through its stream, not its path: the browser runs in the run's shared
 * Chromium server, whose files a connected client cannot open.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The value of the session cookie in the browser, if any. */
export async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies();
  return cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/** Serious and critical violations axe finds in the page now, each with the elements concerned. */
async function seriousViolations(page: Page): Promise<string[]> {
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: AxeViolation[] }> } }).axe;
    const results = await axe.run(document);
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({
        target: node.target,
        html: node.html.slice(0, 200),
        failureSummary: node.failureSummary?.slice(0, 300),
      })),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .slice(0, 5)
          .map((node) => `${JSON.stringify(node.target)} ${node.html} (${node.failureSummary ?? ''})`)
          .join(', ')}`,
    );
}

/**
 * Waits (up to 10 s) until no finite CSS transition or animation runs: modals and toasts fading in or
 * out. Endless ones (a loader's spin) and those driven by scrolling (a table's edge shadows) never
 * end and are not waited for.
 */
export async function settled(page: Page): Promise<void> {
  // A transition starts a frame or two after the change behind it (Mantine moves a dialog to its
  // entering state in an animation frame): three frames pass before asking what still runs. A fixed
  // 300 ms did the same, at a minute of the console's file time over its 190 calls.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let frames = 3;
        const next = () => (--frames === 0 ? resolve() : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
  );
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (animation) =>
              animation.playState !== 'running' ||
              animation.timeline !== document.timeline ||
              animation.effect?.getTiming().iterations === Infinity,
          ),
      undefined,
      { timeout: 10_000, polling: 100 },
    )
    .catch(() => undefined);
}

/**
 * Runs axe-core inside the page (its source is evaluated over the DevTools protocol, which the
 * page's Content-Security-Policy does not govern; a script tag would be refused) and fails on any
 * serious or critical violation, listing each with the elements concerned. Axe runs once nothing
 * animates; a toast may still start fading out during the run (its half-faded text failed contrast
 * under a loaded CI), so a finding is confirmed by two more runs a second apart: a real one stays.
 */
export async function checkAccessibility(page: Page, where = page.url()): Promise<void> {
  axeSource ??= (await import('node:fs')).readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await settled(page);
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) {
    await page.evaluate(axeSource);
  }
  let listing = await seriousViolations(page);
  for (let confirmation = 0; confirmation < 2 && listing.length > 0; confirmation++) {
    await page.waitForTimeout(1000);
    await settled(page);
    listing = await seriousViolations(page);
  }
  expect({ where, violations: listing }).toEqual({ where, violations: [] });
}

/** Runs `check` at each of the two widths, then returns to the desktop width. */
export async function atBothWidths(page: Page, check: (width: keyof typeof VIEWPORTS) => Promise<void>): Promise<void> {
  for (const width of ['desktop', 'phone'] as const) {
    await page.setViewportSize(VIEWPORTS[width]);
    await check(width);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  // Layouts that follow the width (media queries read by React) render again after the resize: let
  // two frames pass, or the test's next click may land on a node being replaced and be lost (the
  // members test's "Change access" did so under load).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Retries `read` until it returns `expected` (deep equality) or `timeoutMs` passes; returns the last value. */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!isDeepStrictEqual(value, expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/** The text of the elements that describe a control (`aria-describedby`): where its error is read out. */
export async function describedBy(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id === '' ? '' : (document.getElementById(id)?.textContent ?? '')))
      .join(' ')
      .trim(),
  );
}
