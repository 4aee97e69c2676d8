// `npm run screenshots` (after `npm run build`): the console's main views as PNGs in docs/screenshots/,
// from real services on a scratch in-memory database (PGlite) filled with demo data through the real
// gateway and admin API, photographed by the machine's Chromium (CHROMIUM_PATH, else /usr/bin/chromium)
// at 1440×900. Nothing is kept: the database, the data directory and the browser profile are temporary.
/* global fetch, FormData */
import { Blob } from 'node:buffer';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { startGateway } from '@intake/gateway';
import { parseConfig } from '@intake/shared/config';
import { migrate, openDatabase } from '@intake/shared/db';
import { createLogger } from '@intake/shared/logger';
import { generateSecret } from '@intake/shared/secrets';
import { createServices } from '@intake/shared/services';
import { createDeliveryWorker, createSearchIndexer } from '@intake/worker';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../../', import.meta.url));
const outputDir = path.join(root, 'docs/screenshots');
const consoleIndex = path.join(root, 'admin-web/dist/index.html');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ADMIN_EMAIL = 'admin@acme.example';
const ADMIN_PASSWORD = 'demo password for the screenshots';
const VIEWPORT = { width: 1440, height: 900 };

/** A one-page PDF with a correct cross-reference table (what the gateway's checks accept). */
function samplePdf(title) {
  const content = `BT /F1 18 Tf 40 150 Td (${title}) Tj ET\n0.2 0.4 0.6 rg 40 40 120 80 re f\n`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let text = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets = [];
  objects.forEach((body, index) => {
    offsets.push(text.length);
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) {
    text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  }
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

/** A webhook receiver on loopback that answers 200, as a customer's CRM would. */
async function startReceiver() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function gqlClient(adminUrl) {
  const call = async (query, variables = {}, token) => {
    const response = await fetch(`${adminUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const result = await response.json();
    if (result.errors) {
      throw new Error(`GraphQL: ${result.errors.map((error) => error.message).join('; ')}`);
    }
    return result.data;
  };
  const { login } = await call(
    'mutation ($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
    { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  );
  return (query, variables) => call(query, variables, login.token);
}

async function until(check, what, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(100);
  }
}

async function fillDemoData({ gql, gatewayUrl, apiKey, receiverUrl }) {
  const { createSite } = await gql(
    'mutation { createSite(input: { name: "Acme Shop", domain: "shop.acme.example" }) { id } }',
  );
  await gql('mutation { createSite(input: { name: "Acme Careers", domain: "careers.acme.example" }) { id } }');
  const siteId = createSite.id;
  const form = async (name) =>
    (
      await gql(
        'mutation ($siteId: ID!, $name: String!) { createForm(input: { siteId: $siteId, name: $name }) { id code } }',
        {
          siteId,
          name,
        },
      )
    ).createForm;
  const contact = await form('Contact');
  const quote = await form('Quote request');
  await gql(
    'mutation ($formId: ID!, $url: String!) { createWebhook(input: { formId: $formId, url: $url, description: "CRM sync (HubSpot bridge)" }) { webhook { id } } }',
    { formId: contact.id, url: `${receiverUrl}/hooks/intake` },
  );
  await gql('mutation { createApiToken(name: "Nightly export to the data warehouse") { token } }');
  await gql('mutation { createApiToken(name: "Support dashboard") { token } }');

  const { siteApiView } = await gql('query ($siteId: ID!) { siteApiView(siteId: $siteId) { token } }', { siteId });
  const send = async (code, body) => {
    const multipart = body instanceof FormData;
    const response = await fetch(`${gatewayUrl}/api/v1/send/${code}`, {
      method: 'POST',
      headers: {
        'X-KEY-SERVICE': apiKey,
        Authorization: `Bearer ${siteApiView.token}`,
        ...(multipart ? {} : { 'content-type': 'application/json' }),
      },
      body: multipart ? body : JSON.stringify(body),
    });
    if (response.status !== 201) {
      throw new Error(`the gateway answered ${response.status}: ${await response.text()}`);
    }
  };
  const messages = [
    {
      name: 'Margaret Hamilton',
      email: 'margaret@apollo.example',
      subject: 'Order #10482',
      message: 'My parcel arrived damaged. Could you send a replacement?',
    },
    {
      name: 'Alan Turing',
      email: 'alan@bletchley.example',
      subject: 'Opening hours',
      message: 'Are you open on Sunday afternoons?',
    },
    {
      name: 'Tom & Jerry Ltd',
      email: 'orders@tomandjerry.example',
      subject: 'Wholesale',
      message: 'We would like a price list for 500+ units.',
      company: { name: 'Tom & Jerry Ltd', vat: 'GB123456789' },
    },
    {
      name: 'Katherine Johnson',
      email: 'katherine@langley.example',
      subject: 'Invoice',
      message: 'Please send the invoice for order #10511 again.',
    },
  ];
  for (const body of messages) {
    await send(contact.code, body);
  }
  const withFile = new FormData();
  withFile.append('name', 'Grace Hopper');
  withFile.append('email', 'grace@navy.example');
  withFile.append('subject', 'Return form');
  withFile.append('message', 'The signed return form is attached.');
  withFile.append(
    'fichier',
    new Blob([samplePdf('Return form #10497')], { type: 'application/pdf' }),
    'return-form.pdf',
  );
  await send(contact.code, withFile);
  await send(quote.code, {
    name: 'Ada Lovelace',
    email: 'ada@engines.example',
    quantity: '12',
    product: 'Analytical engine',
  });
  return { siteId, contact, quote, send };
}

/** A month of history for the Overview: submissions spread over 30 days, and some refusals. */
async function fillHistory({ db, gateway, send, contact, quote }) {
  for (let index = 0; index < 90; index += 1) {
    await send(index % 3 === 0 ? quote.code : contact.code, { name: `Customer ${index}`, message: 'Hello' });
  }
  await db.em
    .fork()
    .execute(
      `update "submissions" set "created_at" = "created_at" - (abs(hashtext("id"::text)) % 30) * interval '1 day' ` +
        `where "data"->>'name' like 'Customer %'`,
    );
  const refuse = (headers) =>
    fetch(`${gateway.url}/api/v1/send/${contact.code}`, { method: 'POST', headers, body: '{}' });
  for (let index = 0; index < 6; index += 1) {
    await refuse({ 'X-KEY-SERVICE': 'not the key', 'Content-Type': 'application/json' });
  }
  await gateway.refusals.flush();
}

async function main() {
  if (!existsSync(consoleIndex)) {
    throw new Error('the console is not built: run `npm run build` first');
  }
  if (!existsSync(chromiumPath)) {
    throw new Error(`no Chromium at ${chromiumPath}: install Debian's chromium or set CHROMIUM_PATH`);
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'intake-screenshots-'));
  const profileDir = await mkdtemp(path.join(tmpdir(), 'intake-screenshots-chromium-'));
  const receiver = await startReceiver();
  const config = parseConfig({
    NODE_ENV: 'development',
    GATEWAY_PORT: '0',
    ADMIN_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    API_KEY: generateSecret(32),
    JWT_SECRET: generateSecret(32),
    TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DELIVERY_POLL_INTERVAL_MS: '100',
    LOG_LEVEL: 'silent',
  });
  const db = await openDatabase({ pgliteDir: null });
  await migrate(db);
  const services = createServices(config, db, createLogger(config.logLevel));
  await ensureAdmin(services);
  const gateway = await startGateway(services);
  const admin = await startAdmin(services, { gatewayUrl: gateway.url });
  const worker = createDeliveryWorker(services, { publicAdminOrigin: () => admin.url });
  worker.start();
  // As `npm start` runs it: the search screenshot finds only what the indexer has indexed.
  const searchIndexer = createSearchIndexer(services);
  searchIndexer.start();
  const browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    viewport: VIEWPORT,
    colorScheme: 'light',
  });
  try {
    const gql = await gqlClient(admin.url);
    const { siteId, contact, quote, send } = await fillDemoData({
      gql,
      gatewayUrl: gateway.url,
      apiKey: config.apiKey,
      receiverUrl: receiver.url,
    });
    await mkdir(outputDir, { recursive: true });
    const page = await browser.newPage();
    page.setDefaultTimeout(15000);
    const heading = (name) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
    const shoot = async (name) => {
      // Let notifications and transitions settle, and keep the pointer out of the picture.
      await page.mouse.move(0, VIEWPORT.height - 1);
      await page.waitForTimeout(600);
      const file = path.join(outputDir, `${name}.png`);
      await page.screenshot({ path: file });
      const { size } = await stat(file);
      console.log(`${path.relative(root, file)}  ${Math.round(size / 1024)} KiB`);
    };

    await page.goto(`${admin.url}/sign-in`);
    await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
    await shoot('sign-in');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await heading('Sites');
    await page.getByRole('row', { name: /Acme Shop/ }).waitFor();
    await shoot('sites');

    await page.goto(`${admin.url}/sites/${siteId}/forms`);
    await heading('Forms');
    await page.getByRole('row', { name: /Quote request/ }).waitFor();
    await shoot('forms');

    await page.goto(`${admin.url}/sites/${siteId}/api`);
    await heading('API');
    await page.getByRole('button', { name: 'Show token' }).click();
    await shoot('api');

    // The webhook has had its submission event; send a test too, so the log shows both.
    const { webhooks } = await gql('query ($formId: ID!) { webhooks(formId: $formId) { id } }', {
      formId: contact.id,
    });
    await gql('mutation ($id: ID!) { sendTestWebhook(id: $id) { id } }', { id: webhooks[0].id });
    await until(async () => {
      const { deliveries } = await gql('query ($id: ID!) { deliveries(webhookId: $id) { status } }', {
        id: webhooks[0].id,
      });
      return deliveries.length >= 6 && deliveries.every((delivery) => delivery.status === 'SUCCEEDED');
    }, 'the webhook deliveries');

    await page.goto(`${admin.url}/sites/${siteId}/forms/${contact.id}`);
    await heading('Submissions');
    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor();
    await shoot('submissions');

    await page
      .getByRole('row', { name: /Grace Hopper/ })
      .getByRole('link', { name: 'Open' })
      .click();
    await heading('Submission');
    await page.getByRole('link', { name: 'Download return-form.pdf' }).waitFor();
    await shoot('submission-detail');

    await page.goto(`${admin.url}/sites/${siteId}/forms/${contact.id}/webhooks`);
    await heading('Webhooks');
    await page.getByRole('row', { name: /webhook\.test/ }).waitFor();
    await shoot('webhooks');

    await page.goto(`${admin.url}/api-tokens`);
    await page.getByText('Support dashboard').first().waitFor();
    await shoot('tokens');

    await page.goto(`${admin.url}/sites/${siteId}/forms/${contact.id}?q=invoice`);
    await heading('Submissions');
    await page.getByRole('row', { name: /Katherine Johnson/ }).waitFor();
    await shoot('search');

    await page.goto(`${admin.url}/erasure`);
    await heading('Erase personal data');
    await page.getByRole('textbox', { name: 'Value to find' }).fill('GRACE@navy.example');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: 'Erase selected' }).waitFor();
    await shoot('erasure');

    await page.goto(`${admin.url}/audit-log`);
    await heading('Audit log');
    await page
      .getByRole('row', { name: /createSite/ })
      .first()
      .waitFor();
    await shoot('audit-log');

    await fillHistory({ db, gateway, send, contact, quote });
    await page.goto(`${admin.url}/overview`);
    await heading('Overview');
    await page
      .getByText(/Customer|Contact/)
      .first()
      .waitFor();
    await shoot('overview');
  } finally {
    await browser.close();
    await worker.close();
    await searchIndexer.close();
    await admin.close();
    await gateway.close();
    await db.close(true);
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(profileDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
