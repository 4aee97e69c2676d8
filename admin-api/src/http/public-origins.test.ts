// Every link the admin API writes, on the public address (issue 34): bound to 0.0.0.0 as `npm start`
// does with HOST=0.0.0.0, links go to the address the request came to, or to PUBLIC_URL when set;
// never to 0.0.0.0, and never to loopback for a request made to another address.
import { request } from 'node:http';
import { jest } from '@jest/globals';
import { FormSchema } from '@intake/shared/entities';
import { createTestServices, makeForm, makeSite } from '@intake/shared/test';
import { makeSubmission, sampleFile } from '../test/factories.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, ensureAdmin } from '../test/harness.js';
import { startAdmin, type AdminServer } from '../server.js';

jest.setTimeout(120_000);

const LOGIN = `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`;
const INVITE = `mutation($email: String!) { inviteMember(input: { email: $email, role: member }) { link } }`;
const VIEW = `query($id: ID!) { siteApiView(siteId: $id) { forms { endpointUrl browserFormHtml } } }`;
const FILES = `query($id: ID!) { submission(id: $id) { files { downloadUrl } } }`;
const EXPORT = `mutation($id: ID!) { createSubmissionExport(formId: $id, format: CSV) { url } }`;

interface Started {
  admin: AdminServer;
  services: Awaited<ReturnType<typeof createTestServices>>;
  log: string[];
  port: number;
  ids: { site: string; form: string; submission: string };
}

async function start(env: Record<string, string>, gatewayUrl: string): Promise<Started> {
  const log: string[] = [];
  const services = await createTestServices(
    { ADMIN_EMAIL, ADMIN_PASSWORD, HOST: '0.0.0.0', LOG_LEVEL: 'info', ...env },
    { logDestination: { write: (line: string) => log.push(line) } },
  );
  await ensureAdmin(services);
  const { site } = await makeSite(services);
  const form = await makeForm(services, site);
  await services.db.em
    .fork()
    .nativeUpdate(FormSchema, { id: form.id }, { browserPosting: true, browserOrigins: ['https://www.example.org'] });
  const { submission } = await makeSubmission(services, form, { files: [sampleFile()] });
  // As `npm start` passes it: the gateway's listening URL, on the bind address.
  const admin = await startAdmin(services, { gatewayUrl });
  const port = Number(new URL(admin.url).port);
  return { admin, services, log, port, ids: { site: site.id, form: form.id, submission: submission.id } };
}

/** A GraphQL request to the admin on 127.0.0.1 with the Host header a browser elsewhere would send. */
function gqlAs(
  started: Started,
  host: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<{ data?: any; errors?: unknown[] }> {
  const body = JSON.stringify({ query, variables });
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: started.port,
        path: '/graphql',
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Every link the API answers this Host with. */
async function linksSeenAt(started: Started, host: string): Promise<Record<string, string>> {
  const token = (await gqlAs(started, host, LOGIN, { e: ADMIN_EMAIL, p: ADMIN_PASSWORD })).data.login.token as string;
  const ask = async (query: string, variables: Record<string, unknown>) => {
    const answer = await gqlAs(started, host, query, variables, token);
    expect(answer.errors).toBeUndefined();
    return answer.data;
  };
  const invite = await ask(INVITE, { email: `new-${Math.random()}@example.com` });
  const view = await ask(VIEW, { id: started.ids.site });
  const files = await ask(FILES, { id: started.ids.submission });
  const exported = await ask(EXPORT, { id: started.ids.form });
  const html: string = view.siteApiView.forms[0].browserFormHtml;
  return {
    invitation: invite.inviteMember.link,
    endpoint: view.siteApiView.forms[0].endpointUrl,
    formAction: /action="([^"]+)"/.exec(html)![1]!,
    formScript: /<script src="([^"]+intake-form\.js)"/.exec(html)![1]!,
    download: files.submission.files[0].downloadUrl,
    export: exported.createSubmissionExport.url,
  };
}

const originsOf = (links: Record<string, string>) =>
  Object.fromEntries(Object.entries(links).map(([name, link]) => [name, new URL(link).origin]));

describe('links of an admin bound to 0.0.0.0 with no public address set', () => {
  let started: Started;

  beforeAll(async () => {
    started = await start({ ADMIN_PORT: '0' }, 'http://0.0.0.0:3999');
  });
  afterAll(async () => {
    await started?.admin.close();
    await started?.services.close();
  });

  it('go to the address the request came to, the gateway on its port beside it', async () => {
    const links = await linksSeenAt(started, `192.168.1.20:${started.port}`);
    const admin = `http://192.168.1.20:${started.port}`;
    expect(originsOf(links)).toEqual({
      invitation: admin,
      endpoint: 'http://192.168.1.20:3999',
      formAction: 'http://192.168.1.20:3999',
      formScript: 'http://192.168.1.20:3999',
      download: admin,
      export: admin,
    });
    expect(links.invitation).toMatch(new RegExp(`^${admin}/invitation#`));
  });

  it('through a proxy on a host name, share its origin (the gateway under /api/v1/)', async () => {
    const links = await linksSeenAt(started, 'intake.lan');
    expect(new Set(Object.values(originsOf(links)))).toEqual(new Set(['http://intake.lan']));
    expect(links.endpoint).toMatch(/^http:\/\/intake\.lan\/api\/v1\/send\//);
  });

  it('say localhost at start, never 0.0.0.0, and warn what to do', () => {
    const lines = started.log.map((line) => JSON.parse(line) as { level: number; msg: string });
    const opening = lines.find((line) => line.msg.startsWith('console: open'))!;
    expect(opening.msg).toBe(`console: open http://localhost:${started.port}/ and sign in`);
    const warnings = lines.filter((line) => line.level === 40).map((line) => line.msg);
    expect(warnings).toEqual([
      expect.stringMatching(/admin listens on 0\.0\.0\.0.*plain HTTP.*TRUST_PROXY=true/),
      expect.stringMatching(/PUBLIC_URL is unset.*http:\/\/localhost:\d+/),
    ]);
    expect(started.admin.origins()).toEqual({
      admin: `http://localhost:${started.port}`,
      gateway: 'http://localhost:3999',
    });
  });
});

describe.each([
  [
    'PUBLIC_ADMIN_URL',
    { PUBLIC_ADMIN_URL: 'https://admin.example.com' },
    'https://admin.example.com',
    'https://admin.example.com',
  ],
  [
    'PUBLIC_URL',
    { PUBLIC_URL: 'https://intake.example.com' },
    'https://intake.example.com',
    'https://intake.example.com',
  ],
  [
    'PUBLIC_URL and PUBLIC_GATEWAY_URL',
    { PUBLIC_URL: 'https://admin.example.com', PUBLIC_GATEWAY_URL: 'https://send.example.com' },
    'https://admin.example.com',
    'https://send.example.com',
  ],
])('links of an admin bound to 0.0.0.0 with %s set', (_name, env, admin, gateway) => {
  let started: Started;

  beforeAll(async () => {
    started = await start({ ...env, TRUST_PROXY: 'true' }, 'http://0.0.0.0:3999');
  });
  afterAll(async () => {
    await started?.admin.close();
    await started?.services.close();
  });

  it('all go to the public address, whatever Host the request named', async () => {
    const links = await linksSeenAt(started, `127.0.0.1:${started.port}`);
    expect(originsOf(links)).toEqual({
      invitation: admin,
      endpoint: gateway,
      formAction: gateway,
      formScript: gateway,
      download: admin,
      export: admin,
    });
    const opening = started.log
      .map((line) => JSON.parse(line) as { msg: string })
      .find((line) => line.msg.startsWith('console: open'));
    expect(opening?.msg).toBe(`console: open ${admin}/ and sign in`);
  });
});
