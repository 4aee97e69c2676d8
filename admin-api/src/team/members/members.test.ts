// Members management over a listening admin API, with real sign-ins and real API tokens: each
// operation, the rules that keep owners safe from admins and the team from losing its last owner,
// disabling (sessions and tokens stop on the next request) and removal (the audit log stays readable).
import { jest } from '@jest/globals';
import { AuditEntrySchema } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { makeSite } from '../../test/factories.js';
import { ADMIN_EMAIL, codes, startTestAdmin, type TestAdmin } from '../../test/harness.js';

jest.setTimeout(120_000);

const MEMBER_FIELDS = 'id email name role status createdAt grants { level site { id name } }';
const CREATE = `mutation($input: CreateMemberInput!) { createMember(input: $input) { password member { ${MEMBER_FIELDS} } } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateMemberInput!) { updateMember(id: $id, input: $input) { ${MEMBER_FIELDS} } }`;
const REMOVE = 'mutation($id: ID!) { removeMember(id: $id) }';

interface Created {
  id: string;
  email: string;
  password: string;
  session: string;
}

describe(`members on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let ownerSession: string;
  let ownerId: string;

  async function create(
    token: string,
    input: { email: string; name: string; role: string; grants?: { siteId: string; level: string }[] },
  ): Promise<Created> {
    const result = await admin.gql(CREATE, { input: { grants: [], ...input } }, token);
    expect(result.errors).toBeUndefined();
    const { password, member } = result.data!.createMember;
    return { id: member.id, email: member.email, password, session: await admin.login(member.email, password) };
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    ownerSession = await admin.login();
    ownerId = (await admin.gql('{ me { id } }', {}, ownerSession)).data!.me.id;
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
  }, 30_000);

  it('creates a member with grants, answers the password once, lists and reads them, changes and removes them', async () => {
    const { site } = await makeSite(admin.services, { name: 'Shop' });
    const result = await admin.gql(
      CREATE,
      {
        input: {
          email: '  Reader@Example.COM ',
          name: 'Rea Der',
          role: 'member',
          grants: [{ siteId: site.id, level: 'read' }],
        },
      },
      ownerSession,
    );
    expect(result.errors).toBeUndefined();
    const { password, member } = result.data!.createMember;
    expect(password).toMatch(/^[\w-]{24}$/);
    expect(member).toMatchObject({
      email: 'reader@example.com',
      name: 'Rea Der',
      role: 'member',
      status: 'active',
      grants: [{ level: 'read', site: { id: site.id, name: 'Shop' } }],
    });
    // The generated password signs in, and is never shown again.
    const readerSession = await admin.login('reader@example.com', password);
    expect((await admin.gql('{ me { email } }', {}, readerSession)).data!.me.email).toBe('reader@example.com');
    const listed = (await admin.gql(`{ members { ${MEMBER_FIELDS} } }`, {}, ownerSession)).data!.members as {
      id: string;
    }[];
    expect(listed.map((entry) => entry.id)).toEqual(expect.arrayContaining([ownerId, member.id]));
    expect(JSON.stringify(listed)).not.toContain(password);
    const one = await admin.gql(
      `query($id: ID!) { member(id: $id) { ${MEMBER_FIELDS} } }`,
      { id: member.id },
      ownerSession,
    );
    expect(one.data!.member).toEqual(member);

    const updated = await admin.gql(
      UPDATE,
      { id: member.id, input: { name: 'Rea', grants: [{ siteId: site.id, level: 'manage' }] } },
      ownerSession,
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data!.updateMember).toMatchObject({ name: 'Rea', grants: [{ level: 'manage' }] });
    const promoted = await admin.gql(UPDATE, { id: member.id, input: { role: 'admin' } }, ownerSession);
    expect(promoted.data!.updateMember).toMatchObject({ role: 'admin', grants: [] });

    expect((await admin.gql(REMOVE, { id: member.id }, ownerSession)).data!.removeMember).toBe(true);
    expect((await admin.gql(REMOVE, { id: member.id }, ownerSession)).data!.removeMember).toBe(false);
    const gone = await admin.gql(`query($id: ID!) { member(id: $id) { id } }`, { id: member.id }, ownerSession);
    expect(gone.data!.member).toBeNull();
    expect(codes(await admin.gql('{ me { id } }', {}, readerSession))).toEqual(['UNAUTHENTICATED']);
  });

  it('refuses a duplicate e-mail whatever its case, grants on a deleted or unknown site, and grants for an admin', async () => {
    const { site } = await makeSite(admin.services);
    await create(ownerSession, { email: 'dup@example.com', name: 'Dup', role: 'member' });
    const duplicate = await admin.gql(
      CREATE,
      { input: { email: 'DUP@example.com', name: 'Dup', role: 'member', grants: [] } },
      ownerSession,
    );
    expect(codes(duplicate)).toEqual(['BAD_USER_INPUT']);
    expect(duplicate.errors![0]!.message).toMatch(/already/);

    for (const [input, field] of [
      [{ email: 'not an address', name: 'X', role: 'member', grants: [] }, 'input.email'],
      [{ email: 'blank@example.com', name: '  ', role: 'member', grants: [] }, 'input.name'],
      [
        {
          email: 'twice@example.com',
          name: 'Twice',
          role: 'member',
          grants: [
            { siteId: site.id, level: 'read' },
            { siteId: site.id, level: 'manage' },
          ],
        },
        'input.grants',
      ],
    ] as const) {
      const refused = await admin.gql(CREATE, { input }, ownerSession);
      expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
      expect(refused.errors![0]!.extensions?.field).toBe(field);
    }
    await admin.gql('mutation($id: ID!) { deleteSite(id: $id) }', { id: site.id }, ownerSession);
    for (const siteId of [site.id, '00000000-0000-4000-8000-000000000000']) {
      const refused = await admin.gql(
        CREATE,
        { input: { email: 'late@example.com', name: 'Late', role: 'member', grants: [{ siteId, level: 'read' }] } },
        ownerSession,
      );
      expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
    }
    const { site: live } = await makeSite(admin.services);
    const adminGrants = await admin.gql(
      CREATE,
      {
        input: { email: 'late@example.com', name: 'Late', role: 'admin', grants: [{ siteId: live.id, level: 'read' }] },
      },
      ownerSession,
    );
    expect(codes(adminGrants)).toEqual(['BAD_USER_INPUT']);
    const members = (await admin.gql('{ members { email } }', {}, ownerSession)).data!.members as { email: string }[];
    expect(members.map((entry) => entry.email)).not.toContain('late@example.com');
  });

  it('lets an admin manage admins and members but never make, change, disable or remove an owner', async () => {
    const teamAdmin = await create(ownerSession, { email: 'teamadmin@example.com', name: 'Admin', role: 'admin' });
    const secondOwner = await create(ownerSession, { email: 'owner2@example.com', name: 'Owner 2', role: 'owner' });
    const plain = await create(teamAdmin.session, { email: 'plain@example.com', name: 'Plain', role: 'member' });

    const makesOwner = await admin.gql(
      CREATE,
      { input: { email: 'owner3@example.com', name: 'No', role: 'owner', grants: [] } },
      teamAdmin.session,
    );
    expect(codes(makesOwner)).toEqual(['FORBIDDEN']);
    expect(codes(await admin.gql(UPDATE, { id: plain.id, input: { role: 'owner' } }, teamAdmin.session))).toEqual([
      'FORBIDDEN',
    ]);
    for (const input of [{ name: 'Renamed' }, { role: 'member' }, { status: 'disabled' }]) {
      expect(codes(await admin.gql(UPDATE, { id: secondOwner.id, input }, teamAdmin.session))).toEqual(['FORBIDDEN']);
    }
    expect(codes(await admin.gql(REMOVE, { id: secondOwner.id }, teamAdmin.session))).toEqual(['FORBIDDEN']);
    const still = await admin.gql(
      `query($id: ID!) { member(id: $id) { name role status } }`,
      { id: secondOwner.id },
      ownerSession,
    );
    expect(still.data!.member).toEqual({ name: 'Owner 2', role: 'owner', status: 'active' });

    // What an admin may do: change and remove a member.
    expect(
      (await admin.gql(UPDATE, { id: plain.id, input: { role: 'admin' } }, teamAdmin.session)).errors,
    ).toBeUndefined();
    expect((await admin.gql(REMOVE, { id: plain.id }, teamAdmin.session)).data!.removeMember).toBe(true);
    // A member sees no members.
    const member = await create(ownerSession, { email: 'nosy@example.com', name: 'Nosy', role: 'member' });
    expect(codes(await admin.gql('{ members { id } }', {}, member.session))).toEqual(['FORBIDDEN']);
    await admin.gql(REMOVE, { id: secondOwner.id }, ownerSession);
    await admin.gql(REMOVE, { id: teamAdmin.id }, ownerSession);
  });

  it('never demotes, disables or removes the last active owner, themselves included', async () => {
    for (const [query, variables] of [
      [UPDATE, { id: ownerId, input: { role: 'admin' } }],
      [UPDATE, { id: ownerId, input: { status: 'disabled' } }],
      [REMOVE, { id: ownerId }],
    ] as const) {
      const refused = await admin.gql(query, variables, ownerSession);
      expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
      expect(refused.errors![0]!.message).toMatch(/last active owner/);
    }
    expect((await admin.gql('{ me { role } }', {}, ownerSession)).data!.me.role).toBe('owner');

    // With a second active owner, the first may step down.
    const other = await create(ownerSession, { email: 'heir@example.com', name: 'Heir', role: 'owner' });
    const disabledOwner = await create(ownerSession, { email: 'sleeping@example.com', name: 'Z', role: 'owner' });
    await admin.gql(UPDATE, { id: disabledOwner.id, input: { status: 'disabled' } }, ownerSession);
    // A disabled owner does not count: the heir is now the only other active one.
    expect((await admin.gql(UPDATE, { id: other.id, input: { role: 'admin' } }, ownerSession)).errors).toBeUndefined();
    expect(codes(await admin.gql(REMOVE, { id: ownerId }, ownerSession))).toEqual(['BAD_USER_INPUT']);
    await admin.gql(UPDATE, { id: other.id, input: { role: 'owner' } }, ownerSession);
    expect((await admin.gql(REMOVE, { id: disabledOwner.id }, ownerSession)).data!.removeMember).toBe(true);
    expect((await admin.gql(REMOVE, { id: other.id }, ownerSession)).data!.removeMember).toBe(true);
  });

  it('lets only one of two owners demoting each other at once succeed', async () => {
    const first = await create(ownerSession, { email: 'race1@example.com', name: 'Race 1', role: 'owner' });
    const second = await create(ownerSession, { email: 'race2@example.com', name: 'Race 2', role: 'owner' });
    // The bootstrap owner steps aside so that the two are the only active owners.
    await admin.gql(UPDATE, { id: ownerId, input: { role: 'admin' } }, first.session);
    const results = await Promise.all([
      admin.gql(UPDATE, { id: second.id, input: { role: 'admin' } }, first.session),
      admin.gql(UPDATE, { id: first.id, input: { role: 'admin' } }, second.session),
    ]);
    // The one refused is the last active owner (BAD_USER_INPUT) or, when its request starts after the
    // other committed, already an admin (FORBIDDEN): either way exactly one change happens.
    const refusals = results.map((result) => codes(result)).filter((found) => found.length > 0);
    expect(refusals).toHaveLength(1);
    expect(['BAD_USER_INPUT', 'FORBIDDEN']).toContain(refusals[0]![0]);
    const owners = (await admin.gql('{ members { role status } }', {}, ownerSession)).data!.members as {
      role: string;
      status: string;
    }[];
    expect(owners.filter((member) => member.role === 'owner' && member.status === 'active')).toHaveLength(1);
    const heir = results[0]!.errors === undefined ? first : second;
    await admin.gql(UPDATE, { id: ownerId, input: { role: 'owner' } }, heir.session);
    await admin.gql(REMOVE, { id: first.id }, ownerSession);
    await admin.gql(REMOVE, { id: second.id }, ownerSession);
  });

  it("stops a disabled member's console session, admin token and API token on their next request", async () => {
    const member = await create(ownerSession, { email: 'leaver@example.com', name: 'Leaver', role: 'admin' });
    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
        variables: { e: member.email, p: member.password },
      }),
    });
    const cookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith('intake_session='))!
      .split(';')[0]!;
    const apiToken = (await admin.gql('mutation { createApiToken(name: "ci") { token } }', {}, member.session)).data!
      .createApiToken.token as string;
    const meByCookie = () =>
      fetch(`${admin.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ query: '{ me { id } }' }),
      });
    expect((await meByCookie()).status).toBe(200);
    expect((await admin.gql('{ sites { id } }', {}, apiToken)).errors).toBeUndefined();

    const disabled = await admin.gql(UPDATE, { id: member.id, input: { status: 'disabled' } }, ownerSession);
    expect(disabled.data!.updateMember.status).toBe('disabled');
    expect((await meByCookie()).status).toBe(401);
    for (const token of [member.session, apiToken]) {
      const refused = await admin.gql('{ sites { id } }', {}, token);
      expect(refused.status).toBe(401);
      expect(codes(refused)).toEqual(['UNAUTHENTICATED']);
    }
    // Enabled again, they sign in anew: the old session, admin token and API token stay ended.
    await admin.gql(UPDATE, { id: member.id, input: { status: 'active' } }, ownerSession);
    expect((await meByCookie()).status).toBe(401);
    for (const token of [member.session, apiToken]) {
      expect(codes(await admin.gql('{ sites { id } }', {}, token))).toEqual(['UNAUTHENTICATED']);
    }
    expect(await admin.login(member.email, member.password)).toEqual(expect.any(String));
  });

  it("records who did what to members, never a password, and keeps a removed member's entries under their name", async () => {
    const { site } = await makeSite(admin.services);
    const member = await create(ownerSession, {
      email: 'recorded@example.com',
      name: 'Recorded',
      role: 'member',
      grants: [{ siteId: site.id, level: 'read' }],
    });
    // Something the member does, on the record under their e-mail.
    await admin.gql(
      'mutation { changePassword(currentPassword: "wrong password here", newPassword: "another long password") { token } }',
      {},
      member.session,
    );
    await admin.gql(UPDATE, { id: member.id, input: { role: 'admin' } }, ownerSession);
    await admin.gql(
      UPDATE,
      { id: member.id, input: { role: 'member', grants: [{ siteId: site.id, level: 'manage' }] } },
      ownerSession,
    );
    await admin.gql(UPDATE, { id: member.id, input: { status: 'disabled' } }, ownerSession);
    await admin.gql(UPDATE, { id: member.id, input: { status: 'active' } }, ownerSession);
    expect((await admin.gql(REMOVE, { id: member.id }, ownerSession)).data!.removeMember).toBe(true);

    const entries = await admin.services.db.em
      .fork()
      .find(
        AuditEntrySchema,
        { $or: [{ objectId: member.id }, { actorId: member.id }] },
        { orderBy: { at: 'asc', id: 'asc' } },
      );
    // Entries of one change may share a millisecond, so their order is not asserted.
    type Row = [string, string, Record<string, unknown> | null];
    const sortKey = ([action, , details]: Row) => `${action} ${JSON.stringify(details?.from ?? '')}`;
    const byContent = (list: Row[]) => [...list].sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
    const ofMember = entries.filter((entry) => entry.action.startsWith('member.'));
    expect(byContent(ofMember.map((entry): Row => [entry.action, entry.actorName, entry.details ?? null]))).toEqual(
      byContent([
        ['member.created', ADMIN_EMAIL, { email: 'recorded@example.com', role: 'member', grants: [`${site.id}:read`] }],
        ['member.roleChanged', ADMIN_EMAIL, { email: 'recorded@example.com', from: 'member', to: 'admin' }],
        ['member.grantsChanged', ADMIN_EMAIL, { email: 'recorded@example.com', from: [`${site.id}:read`], to: [] }],
        ['member.roleChanged', ADMIN_EMAIL, { email: 'recorded@example.com', from: 'admin', to: 'member' }],
        ['member.grantsChanged', ADMIN_EMAIL, { email: 'recorded@example.com', from: [], to: [`${site.id}:manage`] }],
        ['member.disabled', ADMIN_EMAIL, { email: 'recorded@example.com' }],
        ['member.enabled', ADMIN_EMAIL, { email: 'recorded@example.com' }],
        ['member.removed', ADMIN_EMAIL, { email: 'recorded@example.com', name: 'Recorded', role: 'member' }],
      ]),
    );
    expect(JSON.stringify(entries)).not.toContain(member.password);

    // Through the API, after removal: the member's own action still names them.
    const log = await admin.gql(
      'query($id: String!) { auditLog(first: 50, filter: { actor: $id }) { edges { node { action actor { name } } } } }',
      { id: member.id },
      ownerSession,
    );
    expect(log.errors).toBeUndefined();
    const nodes = (log.data!.auditLog.edges as { node: { action: string; actor: { name: string } } }[]).map(
      (edge) => edge.node,
    );
    expect(nodes).toContainEqual({ action: 'changePassword', actor: { name: 'recorded@example.com' } });
  });
});
