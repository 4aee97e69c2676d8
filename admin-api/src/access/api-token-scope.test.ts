// API tokens with a scope (level, sites) and an end, played over a listening admin API: a token
// never does more than its level, its sites and its member's current power allow, and stops when
// it ends.
import { jest } from '@jest/globals';
import { AdminUserSchema, ApiTokenSchema, MemberSiteGrantSchema, SiteSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { createTestDatabase, testDriverName } from '@intake/shared/test';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(120_000);

const PASSWORD = 'a long enough password 42';
const CREATE = `mutation($name: String!, $scope: ApiTokenScopeInput) {
  createApiToken(name: $name, scope: $scope) { token apiToken { id level siteIds expiresAt lastUsedAt } }
}`;
const DAY_MS = 86_400_000;

describe(`the API token scope migration on ${testDriverName()}`, () => {
  it('makes every token made before scopes an admin-level token for every site with no end', async () => {
    const testDb = await createTestDatabase({ migrate: false });
    try {
      await testDb.db.migrator.up({ to: 'Migration20261126120000_members' });
      const connection = testDb.db.em.getConnection();
      await connection.execute(
        `insert into admin_users (id, email, password_hash, password_changed_at, created_at, updated_at, role) values
         ('11111111-1111-4111-8111-111111111111', 'first@example.com', 'x', now(), now(), now(), 'owner')`,
      );
      await connection.execute(
        `insert into api_tokens (id, name, token_hash, created_by_id, created_at) values
         ('33333333-3333-4333-8333-333333333333', 'old', '${'a'.repeat(64)}', '11111111-1111-4111-8111-111111111111', now())`,
      );
      await testDb.db.migrator.up();
      const token = await testDb.db.em.fork().findOneOrFail(ApiTokenSchema, { name: 'old' });
      expect({ level: token.level, siteIds: token.siteIds, expiresAt: token.expiresAt }).toEqual({
        level: 'admin',
        siteIds: null,
        expiresAt: null,
      });
    } finally {
      await testDb.close();
    }
  });
});

describe(`API token scopes and ends on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let ownerSession: string;

  async function mint(session: string, scope?: Record<string, unknown>) {
    const result = await admin.gql(CREATE, { name: 'scoped', scope }, session);
    return result;
  }

  async function memberSession(email: string, role: 'admin' | 'member'): Promise<{ id: string; session: string }> {
    const em = admin.services.db.em.fork();
    const member = em.create(AdminUserSchema, { email, name: email, role, passwordHash: await hashPassword(PASSWORD) });
    await em.flush();
    return { id: member.id, session: await admin.login(email, PASSWORD) };
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    ownerSession = await admin.login();
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
  }, 30_000);

  it('defaults to the role-appropriate level and an end in 90 days, shown on the token', async () => {
    const before = Date.now();
    const minted = await mint(ownerSession);
    expect(minted.errors).toBeUndefined();
    const token = minted.data?.createApiToken.apiToken;
    expect(token.level).toBe('ADMIN');
    expect(token.siteIds).toBeNull();
    const ends = Date.parse(token.expiresAt);
    expect(ends).toBeGreaterThanOrEqual(before + 90 * DAY_MS - 1000);
    expect(ends).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS + 1000);
    const listed = await admin.gql('{ apiTokens { id level siteIds expiresAt lastUsedAt } }', {}, ownerSession);
    expect(listed.data?.apiTokens).toContainEqual(token);

    const member = await memberSession('default-level@example.com', 'member');
    const members = (await mint(member.session)).data?.createApiToken.apiToken;
    expect(members.level).toBe('MANAGE');
  });

  it('keeps a read token from changing anything and from reading a site token', async () => {
    const { site } = await makeSite(admin.services);
    const form = await makeForm(admin.services, site);
    const { submission } = await makeSubmission(admin.services, form, {});
    const secret = (await mint(ownerSession, { level: 'READ' })).data?.createApiToken.token as string;

    const read = await admin.gql('query($id: ID!) { submission(id: $id) { id } }', { id: submission.id }, secret);
    expect(read.data?.submission).toEqual({ id: submission.id });
    const forms = await admin.gql('query($id: ID!) { forms(siteId: $id) { id } }', { id: site.id }, secret);
    expect(forms.data?.forms).toEqual([{ id: form.id }]);

    expect((await admin.gql('{ me { id } apiTokens { id } }', {}, secret)).errors).toBeUndefined();

    const view = await admin.gql('query($id: ID!) { siteApiView(siteId: $id) { token } }', { id: site.id }, secret);
    expect(codes(view)).toEqual(['FORBIDDEN']);
    const changes: [string, Record<string, unknown>][] = [
      ['mutation($id: ID!) { updateSite(id: $id, input: { name: "Renamed" }) { id } }', { id: site.id }],
      ['mutation($id: ID!) { deleteSubmission(id: $id) }', { id: submission.id }],
      ['mutation { createSite(input: { name: "New" }) { id } }', {}],
      ['mutation($id: ID!) { deleteSite(id: $id) }', { id: site.id }],
      ['mutation($id: ID!) { revokeApiToken(id: $id) }', { id: '00000000-0000-4000-8000-000000000000' }],
    ];
    for (const [query, variables] of changes) {
      expect([query, codes(await admin.gql(query, variables, secret))]).toEqual([query, ['FORBIDDEN']]);
    }
    const still = await admin.gql('query($id: ID!) { site(id: $id) { name } }', { id: site.id }, ownerSession);
    expect(still.data?.site.name).toBe(site.name);
  });

  it('keeps a site-limited token to its sites: others answer as if they did not exist', async () => {
    const { site: mine } = await makeSite(admin.services);
    const { site: other } = await makeSite(admin.services);
    const otherForm = await makeForm(admin.services, other);
    const minted = await mint(ownerSession, { level: 'MANAGE', siteIds: [mine.id] });
    expect(minted.data?.createApiToken.apiToken.siteIds).toEqual([mine.id]);
    const secret = minted.data?.createApiToken.token as string;

    const sites = await admin.gql('{ sites { id } }', {}, secret);
    expect((sites.data?.sites as { id: string }[]).map((site) => site.id)).toEqual([mine.id]);
    expect(
      (await admin.gql('query($id: ID!) { site(id: $id) { id } }', { id: other.id }, secret)).data?.site,
    ).toBeNull();
    const otherForms = await admin.gql('query($id: ID!) { form(id: $id) { id } }', { id: otherForm.id }, secret);
    expect(otherForms.data?.form).toBeNull();
    const rename = 'mutation($id: ID!) { updateSite(id: $id, input: { name: "Renamed" }) { id } }';
    expect(codes(await admin.gql(rename, { id: other.id }, secret))).toEqual(['NOT_FOUND']);
    expect((await admin.gql(rename, { id: mine.id }, secret)).data?.updateSite).toEqual({ id: mine.id });
    // Team operations reach beyond the listed sites.
    expect(codes(await admin.gql('{ submissionStats { days } }', {}, secret))).toEqual(['FORBIDDEN']);
    expect(codes(await admin.gql('mutation($id: ID!) { deleteSite(id: $id) }', { id: other.id }, secret))).toEqual([
      'FORBIDDEN',
    ]);
  });

  it('refuses a site the member may not see in the site list', async () => {
    const { site } = await makeSite(admin.services);
    const member = await memberSession('scoped-member@example.com', 'member');
    const refused = await mint(member.session, { siteIds: [site.id] });
    expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
  });

  it('refuses an expired token as UNAUTHENTICATED, saying it expired, without the secret', async () => {
    const minted = await mint(ownerSession, { expiresInDays: 1 });
    const secret = minted.data?.createApiToken.token as string;
    expect((await admin.gql('{ me { id } }', {}, secret)).data?.me).toBeTruthy();
    const em = admin.services.db.em.fork();
    await em.nativeUpdate(
      ApiTokenSchema,
      { id: minted.data?.createApiToken.apiToken.id },
      { expiresAt: new Date(Date.now() - 1000) },
    );
    const refused = await admin.gql('{ me { id } }', {}, secret);
    expect(refused.status).toBe(401);
    expect(codes(refused)).toEqual(['UNAUTHENTICATED']);
    expect(refused.errors?.[0]?.message).toMatch(/expired/i);
    expect(JSON.stringify(refused)).not.toContain(secret);
  });

  it('lets only an owner create a token that never ends, and no end beyond a year', async () => {
    const teamAdmin = await memberSession('not-owner@example.com', 'admin');
    expect(codes(await mint(teamAdmin.session, { noExpiry: true }))).toEqual(['FORBIDDEN']);
    const owners = await mint(ownerSession, { noExpiry: true });
    expect(owners.errors).toBeUndefined();
    expect(owners.data?.createApiToken.apiToken.expiresAt).toBeNull();
    expect(codes(await mint(ownerSession, { expiresInDays: 366 }))).toEqual(['BAD_USER_INPUT']);
    const tooFar = new Date(Date.now() + 400 * DAY_MS).toISOString();
    expect(codes(await mint(ownerSession, { expiresAt: tooFar }))).toEqual(['BAD_USER_INPUT']);
    const past = new Date(Date.now() - DAY_MS).toISOString();
    expect(codes(await mint(ownerSession, { expiresAt: past }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await mint(ownerSession, { expiresInDays: 5, noExpiry: true }))).toEqual(['BAD_USER_INPUT']);
    const exact = new Date(Date.now() + 10 * DAY_MS).toISOString();
    expect((await mint(ownerSession, { expiresAt: exact })).data?.createApiToken.apiToken.expiresAt).toBe(exact);
  });

  it("shrinks a token with its member: a demoted admin's admin token loses access on its next request", async () => {
    const member = await memberSession('to-demote@example.com', 'admin');
    const { site } = await makeSite(admin.services);
    const secret = (await mint(member.session)).data?.createApiToken.token as string;
    const siteQuery = 'query($id: ID!) { site(id: $id) { id } }';
    expect((await admin.gql(siteQuery, { id: site.id }, secret)).data?.site).toEqual({ id: site.id });
    const em = admin.services.db.em.fork();
    await em.nativeUpdate(AdminUserSchema, { id: member.id }, { role: 'member' });
    expect((await admin.gql(siteQuery, { id: site.id }, secret)).data?.site).toBeNull();
    em.create(MemberSiteGrantSchema, {
      member: em.getReference(AdminUserSchema, member.id),
      site: em.getReference(SiteSchema, site.id),
      level: 'read',
    });
    await em.flush();
    expect((await admin.gql(siteQuery, { id: site.id }, secret)).data?.site).toEqual({ id: site.id });
    const rename = 'mutation($id: ID!) { updateSite(id: $id, input: { name: "Renamed" }) { id } }';
    expect(codes(await admin.gql(rename, { id: site.id }, secret))).toEqual(['FORBIDDEN']);
  });

  it('records the scope of a new token in the audit log, never the secret', async () => {
    const { site } = await makeSite(admin.services);
    const minted = await mint(ownerSession, { level: 'READ', siteIds: [site.id], expiresInDays: 7 });
    const secret = minted.data?.createApiToken.token as string;
    const log = await admin.gql(
      '{ auditLog(first: 1, filter: { action: "createApiToken" }) { edges { node { details } } } }',
      {},
      ownerSession,
    );
    const details = log.data?.auditLog.edges[0].node.details;
    expect(JSON.stringify(log)).not.toContain(secret);
    expect(details).toMatchObject({
      'scope.level': 'READ',
      'scope.siteIds': [site.id],
      'result.apiToken.level': 'READ',
      'result.apiToken.siteIds': [site.id],
      'result.apiToken.expiresAt': minted.data?.createApiToken.apiToken.expiresAt,
    });
  });
});
