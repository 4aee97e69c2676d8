// The quick start's flow through both real services: an administrator sets up a site and a form in
// the admin API, a site backend posts to the gateway, and the administrator reads everything back.
import { createHash } from 'node:crypto';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import type { RunningServer } from '@intake/shared/http';
import { createTestServices, graphqlData, testDriverName } from '@intake/shared/test';
import { startGateway } from '@intake/gateway';
import { send } from '@intake/gateway/test';
import { pdf } from '@intake/test-files';

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };

let services: Awaited<ReturnType<typeof createTestServices>>;
let gateway: RunningServer;
let admin: Awaited<ReturnType<typeof startAdmin>>;
let adminToken: string;

function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return graphqlData<T>(admin.url, query, variables, adminToken);
}

beforeAll(async () => {
  services = await createTestServices({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  await ensureAdmin(services);
  gateway = await startGateway(services);
  admin = await startAdmin(services);
  const { login } = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
    e: ADMIN.email,
    p: ADMIN.password,
  });
  adminToken = login.token;
  // Three scrypt hashes at N=2^17 (the admin's, the dummy one, the login's): slow on a loaded machine.
}, 60_000);

afterAll(async () => {
  await gateway.close();
  await admin.close();
  await services.close();
});

describe(`end to end on ${testDriverName()}`, () => {
  let siteId: string;
  let formCode: string;
  let formId: string;
  let siteToken: string;

  beforeAll(async () => {
    const { createSite } = await gql(
      'mutation { createSite(input: { name: "Shop", domain: "shop.example" }) { id name domain } }',
    );
    siteId = createSite.id;
    const { createForm } = await gql(
      'mutation($s: ID!) { createForm(input: { siteId: $s, name: "Contact" }) { id code enabled } }',
      {
        s: siteId,
      },
    );
    formId = createForm.id;
    formCode = createForm.code;
    const { siteApiView } = await gql('query($s: ID!) { siteApiView(siteId: $s) { siteId token forms { code } } }', {
      s: siteId,
    });
    expect(siteApiView.forms.map((form: { code: string }) => form.code)).toEqual([formCode]);
    siteToken = siteApiView.token;
  });

  it('stores a JSON and a multipart submission that read back equal, with the PDF downloadable byte for byte', async () => {
    const apiKey = services.config.apiKey;
    const json = { name: 'Ada', age: 36, subscribed: true, tags: ['a', 'b'], note: null };
    const jsonAnswer = (await (await send(gateway.url, formCode, { apiKey, token: siteToken, json })).json()) as {
      id: string;
    };

    const bytes = pdf(120_000);
    const body = new FormData();
    body.append('name', 'Grace');
    body.append('fichier', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'rapport été.pdf');
    const multipartResponse = await send(gateway.url, formCode, { apiKey, token: siteToken, body });
    expect(multipartResponse.status).toBe(201);
    const multipartAnswer = (await multipartResponse.json()) as { id: string; files: { id: string }[] };

    const { submissions } = await gql(
      'query($f: ID!) { submissions(formId: $f, first: 10) { totalCount edges { cursor node { id data files { id field name mimeType size sha256 downloadUrl } } } pageInfo { hasNextPage endCursor } } }',
      { f: formId },
    );
    expect(submissions.totalCount).toBe(2);
    expect(submissions.pageInfo.hasNextPage).toBe(false);
    const [newest, oldest] = submissions.edges.map((edge: { node: unknown }) => edge.node);
    expect(oldest).toEqual(expect.objectContaining({ id: jsonAnswer.id, data: json, files: [] }));
    expect(newest.id).toBe(multipartAnswer.id);
    expect(newest.data).toEqual({ name: 'Grace' });
    const [file] = newest.files;
    expect(file).toEqual(
      expect.objectContaining({
        id: multipartAnswer.files[0]!.id,
        field: 'fichier',
        name: 'rapport été.pdf',
        mimeType: 'application/pdf',
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      }),
    );

    const download = await fetch(file.downloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const { deleteSubmission } = await gql('mutation($id: ID!) { deleteSubmission(id: $id) }', { id: newest.id });
    expect(deleteSubmission).toBe(true);
    expect((await fetch(file.downloadUrl)).status).toBe(404);
    const { submission } = await gql('query($id: ID!) { submission(id: $id) { id } }', { id: newest.id });
    expect(submission).toBeNull();
  });

  it('refuses the old site token at the gateway after rotation, and every token after the site is deleted', async () => {
    const apiKey = services.config.apiKey;
    const { rotateSiteToken } = await gql('mutation($s: ID!) { rotateSiteToken(siteId: $s) { token } }', { s: siteId });
    const old = await send(gateway.url, formCode, { apiKey, token: siteToken, json: { a: 1 } });
    expect(old.status).toBe(403);
    expect(((await old.json()) as { code: string }).code).toBe('token_invalid');
    expect((await send(gateway.url, formCode, { apiKey, token: rotateSiteToken.token, json: { a: 1 } })).status).toBe(
      201,
    );

    const { updateForm } = await gql(
      'mutation($id: ID!) { updateForm(id: $id, input: { enabled: false }) { enabled } }',
      { id: formId },
    );
    expect(updateForm.enabled).toBe(false);
    const disabled = await send(gateway.url, formCode, { apiKey, token: rotateSiteToken.token, json: { a: 1 } });
    expect(((await disabled.json()) as { code: string }).code).toBe('form_forbidden');

    expect((await gql('mutation($s: ID!) { deleteSite(id: $s) }', { s: siteId })).deleteSite).toBe(true);
    const gone = await send(gateway.url, formCode, { apiKey, token: rotateSiteToken.token, json: { a: 1 } });
    expect(((await gone.json()) as { code: string }).code).toBe('token_invalid');
    expect((await gql('query($s: ID!) { site(id: $s) { id } }', { s: siteId })).site).toBeNull();
  });
});
