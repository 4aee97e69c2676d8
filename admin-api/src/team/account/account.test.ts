// What the console reads to offer only what someone may do (`me.permissions`, `Site.viewerCanManage`)
// and a member renaming themselves (`updateAccount`), over a listening admin API with real sign-ins
// and real API tokens.
import { jest } from '@jest/globals';
import { AuditEntrySchema } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { makeSite } from '../../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../../test/harness.js';

jest.setTimeout(120_000);

const CREATE = 'mutation($input: CreateMemberInput!) { createMember(input: $input) { password member { id email } } }';
const TOKEN = 'mutation($scope: ApiTokenScopeInput) { createApiToken(name: "probe", scope: $scope) { token } }';
const RENAME = 'mutation($name: String!) { updateAccount(input: { name: $name }) { id name email role } }';
const ADMIN_TEAM_PERMISSIONS = [
  'account',
  'tokens:all',
  'sites:create',
  'sites:delete',
  'statistics:read',
  'erasure',
  'audit:read',
  'members:manage',
];
// The team's sign-in policy is the owners' alone.
const OWNER_TEAM_PERMISSIONS = [...ADMIN_TEAM_PERMISSIONS, 'policy:manage'];

describe(`the caller's permissions and own account on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let ownerSession: string;
  let managed: string;
  let read: string;
  let hidden: string;

  async function member(email: string, role: string, grants: { siteId: string; level: string }[] = []) {
    const result = await admin.gql(CREATE, { input: { email, name: email, role, grants } }, ownerSession);
    expect(result.errors).toBeUndefined();
    const { password, member: created } = result.data!.createMember;
    return { id: created.id as string, session: await admin.login(email, password) };
  }

  async function token(session: string, scope?: Record<string, unknown>): Promise<string> {
    const result = await admin.gql(TOKEN, { scope }, session);
    expect(result.errors).toBeUndefined();
    return result.data!.createApiToken.token;
  }

  const me = async (credential: string) =>
    (await admin.gql('{ me { role permissions } }', {}, credential)).data!.me as {
      role: string;
      permissions: string[];
    };

  const sitesSeen = async (credential: string) => {
    const result = await admin.gql('{ sites { id viewerCanManage } }', {}, credential);
    expect(result.errors).toBeUndefined();
    return Object.fromEntries(
      (result.data!.sites as { id: string; viewerCanManage: boolean }[]).map((site) => [site.id, site.viewerCanManage]),
    );
  };

  beforeAll(async () => {
    admin = await startTestAdmin();
    ownerSession = await admin.login();
    managed = (await makeSite(admin.services, { name: 'Managed' })).site.id;
    read = (await makeSite(admin.services, { name: 'Read' })).site.id;
    hidden = (await makeSite(admin.services, { name: 'Hidden' })).site.id;
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
  }, 30_000);

  it("answers each role's team permissions, cut by an API token's level and site list", async () => {
    expect(await me(ownerSession)).toEqual({ role: 'owner', permissions: OWNER_TEAM_PERMISSIONS });
    const teamAdmin = await member('boss@example.com', 'admin');
    expect(await me(teamAdmin.session)).toEqual({ role: 'admin', permissions: ADMIN_TEAM_PERMISSIONS });
    const worker = await member('worker@example.com', 'member', [{ siteId: managed, level: 'manage' }]);
    expect(await me(worker.session)).toEqual({ role: 'member', permissions: ['account'] });

    // An owner's read token reads the figures but manages nobody; limited to one site, it keeps only its account.
    expect((await me(await token(ownerSession, { level: 'READ' }))).permissions).toEqual([
      'account',
      'statistics:read',
    ]);
    expect((await me(await token(ownerSession, { level: 'ADMIN', siteIds: [managed] }))).permissions).toEqual([
      'account',
    ]);
  });

  it('says on each site whether the caller may change it: owners everywhere, members by grant, read tokens nowhere', async () => {
    expect(await sitesSeen(ownerSession)).toEqual({ [managed]: true, [read]: true, [hidden]: true });
    const worker = await member('granted@example.com', 'member', [
      { siteId: managed, level: 'manage' },
      { siteId: read, level: 'read' },
    ]);
    expect(await sitesSeen(worker.session)).toEqual({ [managed]: true, [read]: false });
    expect(await sitesSeen(await token(worker.session, { level: 'READ' }))).toEqual({
      [managed]: false,
      [read]: false,
    });
    const one = await admin.gql('query($id: ID!) { site(id: $id) { viewerCanManage } }', { id: read }, worker.session);
    expect(one.data!.site).toEqual({ viewerCanManage: false });

    // Read again on every request: a new grant shows at once.
    const regranted = await admin.gql(
      'mutation($id: ID!, $siteId: String!) { updateMember(id: $id, input: { grants: [{ siteId: $siteId, level: manage }] }) { id } }',
      { id: worker.id, siteId: read },
      ownerSession,
    );
    expect(regranted.errors).toBeUndefined();
    expect(await sitesSeen(worker.session)).toEqual({ [read]: true });
  });

  it("lists only the caller's own tokens with `mine`, an owner's included, while `apiTokens` alone lists everyone's", async () => {
    const worker = await member('tokens@example.com', 'member');
    await token(worker.session);
    await token(ownerSession);
    const ids = async (query: string, credential: string) =>
      ((await admin.gql(query, {}, credential)).data!.apiTokens as { id: string }[]).length;
    const everyone = await ids('{ apiTokens { id } }', ownerSession);
    const ownerOwn = await ids('{ apiTokens(mine: true) { id } }', ownerSession);
    expect(ownerOwn).toBeGreaterThan(0);
    expect(everyone).toBeGreaterThan(ownerOwn);
    expect(await ids('{ apiTokens(mine: true) { id } }', worker.session)).toBe(1);
    expect(await ids('{ apiTokens { id } }', worker.session)).toBe(1);
  });

  it('renames the caller only, trimmed, records it, and refuses a blank name and a read token', async () => {
    const worker = await member('renamer@example.com', 'member');
    const renamed = await admin.gql(RENAME, { name: '  Ada Lovelace ' }, worker.session);
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data!.updateAccount).toEqual({
      id: worker.id,
      name: 'Ada Lovelace',
      email: 'renamer@example.com',
      role: 'member',
    });
    expect((await admin.gql('{ me { name } }', {}, worker.session)).data!.me.name).toBe('Ada Lovelace');
    // The owner's name did not move.
    expect((await admin.gql('{ me { name } }', {}, ownerSession)).data!.me.name).not.toBe('Ada Lovelace');

    const blank = await admin.gql(RENAME, { name: '   ' }, worker.session);
    expect(codes(blank)).toEqual(['BAD_USER_INPUT']);
    expect(blank.errors![0]!.extensions?.field).toBe('input.name');
    const controls = await admin.gql(RENAME, { name: 'Ada\u0007' }, worker.session);
    expect(codes(controls)).toEqual(['BAD_USER_INPUT']);

    // A read token changes nothing, its own member's name included; a manage token may.
    expect(codes(await admin.gql(RENAME, { name: 'Token' }, await token(worker.session, { level: 'READ' })))).toEqual([
      'FORBIDDEN',
    ]);
    const byToken = await admin.gql(RENAME, { name: 'Ada L.' }, await token(worker.session, { level: 'MANAGE' }));
    expect(byToken.data!.updateAccount.name).toBe('Ada L.');

    const entries = await admin.services.db.em
      .fork()
      .find(AuditEntrySchema, { action: 'member.renamed', objectId: worker.id }, { orderBy: { at: 'asc', id: 'asc' } });
    expect(entries.map((entry) => [entry.actorName, entry.details])).toEqual([
      ['renamer@example.com', { email: 'renamer@example.com', from: 'renamer@example.com', to: 'Ada Lovelace' }],
      ['probe (renamer@example.com)', { email: 'renamer@example.com', from: 'Ada Lovelace', to: 'Ada L.' }],
    ]);
  });
});
