// deploy/caddy/two-hosts.Caddyfile run for real (issue 34, item 3): Caddy, as this test's own child
// process on high ports, serves the console at admin.intake.test and the gateway at send.intake.test
// with certificates from its internal CA, which Chromium trusts through the NSS database of its
// HOME; --host-resolver-rules maps the names to loopback. Over HTTPS the console signs in with a
// Secure cookie and HSTS, registers a passkey on the real host name and signs in with it, and a
// person joins from the invitation e-mail's link. Clients reach the proxy from other loopback
// addresses (127.0.0.2, …): with TRUST_PROXY_HOPS=1 the audit log and the rate limits see them, not
// the proxy, nor an X-Forwarded-For they wrote. A webhook payload's file link downloads through it.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  describeWithRealPart,
  REPO_ROOT,
  startSmtpInbox,
  startWebhookReceiver,
  type SmtpInbox,
  type WebhookReceiver,
} from '@intake/shared/test';
import { describeConsole, expectHeading, signIn, startConsole, type ConsoleEnvironment } from './harness.js';

const ADMIN_HOST = 'admin.intake.test';
const GATEWAY_HOST = 'send.intake.test';
const missingTools = ['caddy', 'certutil'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The console's suite, or (without caddy or certutil) skipped with the reason, failing under CI=true. */
const describeProxy = (title: string, body: () => void): void =>
  missingTools.length === 0
    ? describeConsole(title, body)
    : describeWithRealPart(
        title,
        { available: false, reason: `missing ${missingTools.join(', ')}`, placeholder: undefined },
        body,
      );

describeProxy('the console and the gateway behind Caddy over HTTPS', () => {
  let dir: string;
  let caddy: ChildProcess;
  let httpsPort: number;
  let ca: Buffer;
  let env: ConsoleEnvironment;
  let inbox: SmtpInbox;
  let receiver: WebhookReceiver;

  /** A request through Caddy as a client at `from` (a loopback address), trusting its CA. */
  function viaProxy(
    host: string,
    pathname: string,
    {
      from = '127.0.0.2',
      method = 'GET',
      headers = {},
      body,
    }: { from?: string; method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          host: '127.0.0.1',
          port: httpsPort,
          servername: host,
          localAddress: from,
          ca,
          method,
          path: pathname,
          headers: { host: `${host}:${httpsPort}`, ...headers },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'intake-caddy-'));
    httpsPort = await freePort();
    const [httpPort, adminPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
    writeFileSync(
      path.join(dir, 'Caddyfile'),
      [
        '{',
        '\tadmin off',
        '\tlocal_certs',
        '\tskip_install_trust',
        `\tstorage file_system ${dir}/data`,
        `\thttp_port ${httpPort}`,
        `\thttps_port ${httpsPort}`,
        '}',
        `import ${path.join(REPO_ROOT, 'deploy/caddy/two-hosts.Caddyfile')}`,
        '',
      ].join('\n'),
    );
    caddy = spawn('caddy', ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      env: {
        ...process.env,
        HOME: dir,
        XDG_DATA_HOME: dir,
        XDG_CONFIG_HOME: dir,
        INTAKE_ADMIN_HOST: ADMIN_HOST,
        INTAKE_GATEWAY_HOST: GATEWAY_HOST,
        INTAKE_ADMIN_UPSTREAM: `127.0.0.1:${adminPort}`,
        INTAKE_GATEWAY_UPSTREAM: `127.0.0.1:${gatewayPort}`,
      },
      stdio: 'ignore',
    });
    const certificates = path.join(dir, 'data/certificates/local');
    await until(
      () => [ADMIN_HOST, GATEWAY_HOST].every((host) => existsSync(path.join(certificates, host, `${host}.crt`))),
      "Caddy's certificates",
    );
    const root = path.join(dir, 'data/pki/authorities/local/root.crt');
    ca = readFileSync(root);
    // Chromium trusts what the NSS database under its HOME trusts.
    const nssdb = `sql:${path.join(dir, '.pki/nssdb')}`;
    execFileSync('mkdir', ['-p', path.join(dir, '.pki/nssdb')]);
    execFileSync('certutil', ['-d', nssdb, '-N', '--empty-password']);
    execFileSync('certutil', ['-d', nssdb, '-A', '-t', 'C,,', '-n', 'intake test CA', '-i', root]);

    inbox = await startSmtpInbox();
    receiver = await startWebhookReceiver();
    env = await startConsole(
      {
        ADMIN_PORT: String(adminPort),
        GATEWAY_PORT: String(gatewayPort),
        PUBLIC_URL: `https://${ADMIN_HOST}:${httpsPort}`,
        PUBLIC_GATEWAY_URL: `https://${GATEWAY_HOST}:${httpsPort}`,
        TRUST_PROXY: 'true',
        TRUST_PROXY_HOPS: '1',
        AUTH_FAILURES_PER_MINUTE: '3',
        SMTP_URL: inbox.url,
        DELIVERY_POLL_INTERVAL_MS: '100',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      {
        deliveryWorker: true,
        chromiumArgs: [`--host-resolver-rules=MAP ${ADMIN_HOST} 127.0.0.1, MAP ${GATEWAY_HOST} 127.0.0.1`],
        chromiumEnv: { HOME: dir },
      },
    );
  });

  afterAll(async () => {
    await env?.close();
    await inbox?.close();
    await receiver?.close();
    caddy?.kill('SIGTERM');
    if (dir) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const consoleUrl = () => `https://${ADMIN_HOST}:${httpsPort}`;

  it('signs in over HTTPS with a Secure cookie and HSTS', async () => {
    const page = await env.newPage();
    const answer = await page.goto(`${consoleUrl()}/sign-in`);
    expect(answer?.headers()['strict-transport-security']).toBe('max-age=31536000');
    await signIn(page, consoleUrl());
    const cookie = (await env.context.cookies(consoleUrl())).find((item) => item.name === 'intake_session');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, domain: ADMIN_HOST });
    await page.close();
  });

  it('registers a passkey on the real host name and signs in with it', async () => {
    // A member of their own: the bootstrap admin keeps signing in with a password alone (env.gql).
    const created = await env.gql<{ createMember: { password: string } }>(
      'mutation { createMember(input: { email: "pat@example.com", name: "Pat", role: member, grants: [] }) { password } }',
    );
    expect(created.errors).toBeUndefined();
    const page = await env.newPage();
    const cdp = await env.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await signIn(page, consoleUrl(), { email: 'pat@example.com', password: created.data!.createMember.password });
    await page.goto(`${consoleUrl()}/account`);
    await expectHeading(page, 'Your account');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Laptop');
    await dialog.getByRole('button', { name: 'Create passkey' }).click();
    await page.getByText('Passkey Laptop added').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectHeading(page, 'Sign in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expectHeading(page, 'Sites');
    await page.getByText('pat@example.com').first().waitFor();
    await page.close();
  });

  it("accepts an invitation from the e-mail's link, on the public address", async () => {
    const invited = await env.gql(
      'mutation($email: String!) { inviteMember(input: { email: $email, role: member }) { emailSent } }',
      { email: 'joiner@example.com' },
    );
    expect(invited.data?.inviteMember).toEqual({ emailSent: true });
    await inbox.waitFor(1);
    const link = /(https\S+\/invitation#[\w-]+)/.exec(inbox.messages[0]!.text)?.[1];
    expect(link?.startsWith(`${consoleUrl()}/invitation#`)).toBe(true);
    const page = await env.newPage();
    await page.goto(link!);
    await expectHeading(page, 'Join the team');
    await page.getByRole('textbox', { name: 'Name' }).fill('Jo Iner');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('a long enough password 42');
    await page.getByRole('button', { name: 'Join' }).click();
    await expectHeading(page, 'Sites');
    await page.close();
  });

  it('sees the client behind the proxy in the audit log and the rate limits, never a forwarded address it wrote', async () => {
    const login = JSON.stringify({
      query: 'mutation { login(email: "nobody@example.com", password: "wrong password") { token } }',
    });
    const refused = await viaProxy(ADMIN_HOST, '/graphql', {
      from: '127.0.0.2',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: login,
    });
    expect(refused.status).toBe(401);
    const audit = await env.gql<{ auditLog: { edges: { node: { action: string; address: string } }[] } }>(
      '{ auditLog(first: 5, filter: { action: "login" }) { edges { node { action address } } } }',
    );
    expect(audit.data?.auditLog.edges[0]?.node).toEqual({ action: 'login', address: '127.0.0.2' });

    // The gateway counts failed authentications per client: 127.0.0.3 is stopped, 127.0.0.4 is not.
    const badKey = (from: string) =>
      viaProxy(GATEWAY_HOST, '/api/v1/send/nothing', {
        from,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-key-service': 'wrong', 'x-forwarded-for': '203.0.113.9' },
        body: '{}',
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      statuses.push((await badKey('127.0.0.3')).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect((await badKey('127.0.0.4')).status).not.toBe(429);
  });

  it("downloads a file through the link in a webhook payload, on the console's public address", async () => {
    const { siteId, formId, formCode } = await env.createSiteAndForm('Proxy site');
    const webhook = await env.gql(
      'mutation($formId: ID!, $url: String!) { createWebhook(input: { formId: $formId, url: $url }) { secret } }',
      {
        formId,
        url: receiver.url,
      },
    );
    expect(webhook.errors).toBeUndefined();
    const view = await env.gql<{ siteApiView: { token: string } }>(
      'query ($siteId: ID!) { siteApiView(siteId: $siteId) { token } }',
      { siteId },
    );
    const boundary = 'intake-proxy-test';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="name"',
      '',
      'Ada',
      `--${boundary}`,
      'Content-Disposition: form-data; name="attachment"; filename="notes.txt"',
      'Content-Type: text/plain',
      '',
      'sent through the proxy',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const sent = await viaProxy(GATEWAY_HOST, `/api/v1/send/${formCode}`, {
      from: '127.0.0.5',
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'x-key-service': env.apiKey,
        authorization: `Bearer ${view.data!.siteApiView.token}`,
      },
      body,
    });
    expect(sent.status).toBe(201);
    await receiver.waitFor(1);
    const downloadUrl = new URL(receiver.received[0]!.json.data.files[0].downloadUrl as string);
    expect(downloadUrl.origin).toBe(consoleUrl());
    const download = await viaProxy(ADMIN_HOST, `${downloadUrl.pathname}${downloadUrl.search}`);
    expect({ status: download.status, body: download.body.toString('utf8') }).toEqual({
      status: 200,
      body: 'sent through the proxy',
    });
  });
});
