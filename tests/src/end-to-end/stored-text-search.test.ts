// Search and erasure read stored text as it was typed (issue #21): values holding `'` or `"` are
// stored escaped (`&#39;`, `&quot;`), yet a search for `O'Brien` or `said "hello` finds them, the
// escape text `#39;` finds nothing, and erasure on request finds and erases `o'brien@example.com`.
// Posted to the real gateway and read through the admin API's GraphQL, on the database under test.
import { jest } from '@jest/globals';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import type { RunningServer } from '@intake/shared/http';
import { createTestServices, graphqlData, searchIndexed, testDriverName } from '@intake/shared/test';
import { startGateway } from '@intake/gateway';
import { send } from '@intake/gateway/test';

jest.setTimeout(60_000);

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
}, 90_000);

afterAll(async () => {
  await gateway?.close();
  await admin?.close();
  await services?.close();
});

describe(`search and erasure of stored text on ${testDriverName()}`, () => {
  let formId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const { createSite } = await gql('mutation { createSite(input: { name: "Shop" }) { id } }');
    const { createForm } = await gql(
      'mutation($s: ID!) { createForm(input: { siteId: $s, name: "Contact" }) { id code } }',
      { s: createSite.id },
    );
    formId = createForm.id;
    const { siteApiView } = await gql('query($s: ID!) { siteApiView(siteId: $s) { token } }', { s: createSite.id });
    const post = async (name: string, json: Record<string, unknown>) => {
      const response = await send(gateway.url, createForm.code, {
        apiKey: services.config.apiKey,
        token: siteApiView.token,
        json,
      });
      expect(response.status).toBe(201);
      ids[name] = ((await response.json()) as { id: string }).id;
    };
    await post('irish', {
      name: "Siobhán O'Brien",
      email: "o'brien@example.com",
      contact: { notes: ['she said "hello" & left', 'a < b'] },
    });
    await post('plain', { name: 'Ada Lovelace', email: 'ada@example.com', message: 'nothing to see' });
    await searchIndexed(services.db, formId);
  });

  async function search(query: string): Promise<string[]> {
    const { submissions } = await gql(
      'query($f: ID!, $q: String!) { submissions(formId: $f, first: 50, filter: { query: $q }) { totalCount edges { node { id } } } }',
      { f: formId, q: query },
    );
    const byId = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    const names = submissions.edges.map((edge: { node: { id: string } }) => byId.get(edge.node.id)).sort();
    expect(submissions.totalCount).toBe(names.length);
    return names;
  }

  it('stores the quotes escaped, as the sanitiser writes them', async () => {
    const { submission } = await gql('query($id: ID!) { submission(id: $id) { data } }', { id: ids.irish });
    expect(submission.data.name).toBe('Siobhán O&#39;Brien');
    expect(submission.data.contact.notes[0]).toBe('she said &quot;hello&quot; &amp; left');
  });

  it('finds O\'Brien and said "hello as typed, and never the escape text', async () => {
    expect(await search("O'Brien")).toEqual(['irish']);
    expect(await search("siobhan o'brien")).toEqual(['irish']);
    expect(await search('said "hello')).toEqual(['irish']);
    expect(await search('"hello" & left')).toEqual(['irish']);
    expect(await search('a < b')).toEqual(['irish']);
    expect(await search('#39;')).toEqual([]);
    expect(await search('&#39;')).toEqual([]);
    expect(await search('quot;')).toEqual([]);
    expect(await search('amp;')).toEqual([]);
    expect(await search('" & ')).toEqual(['irish']);
  });

  it("previews and erases o'brien@example.com, in any case", async () => {
    const find = (value: string) =>
      gql('query($v: String!) { erasureCandidates(value: $v) { id matchingFields } }', { v: value });
    expect((await find("o'brien@example.com")).erasureCandidates).toEqual([
      { id: ids.irish, matchingFields: ['email'] },
    ]);
    expect((await find(" O'BRIEN@example.com ")).erasureCandidates).toEqual([
      { id: ids.irish, matchingFields: ['email'] },
    ]);
    expect((await find('she said "hello" & left')).erasureCandidates).toEqual([
      { id: ids.irish, matchingFields: ['contact'] },
    ]);
    // The stored form is not what anybody typed.
    expect((await find('o&#39;brien@example.com')).erasureCandidates).toEqual([]);

    const { eraseSubmissions } = await gql('mutation($ids: [ID!]!) { eraseSubmissions(ids: $ids) { erasedIds } }', {
      ids: [ids.irish],
    });
    expect(eraseSubmissions.erasedIds).toEqual([ids.irish]);
    expect((await find("o'brien@example.com")).erasureCandidates).toEqual([]);
    expect(await search("O'Brien")).toEqual([]);
  });
});
