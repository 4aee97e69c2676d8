// The permission table (permissions.ts) played over a listening admin API: every operation, for
// every role, with real sign-ins and real API tokens, on a site the caller was granted and on one
// they were not. The expectations of the walk are derived from the table; the key cases below are
// written out by hand, so a wrong table entry cannot make its own test pass.
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import {
  AdminUserSchema,
  ApiTokenSchema,
  DeliverySchema,
  FormSchema,
  MemberSiteGrantSchema,
  SiteSchema,
  SubmissionSchema,
  WebhookSchema,
  type MemberRole,
  type SiteGrantLevel,
} from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { makeWebhook, testDriverName } from '@intake/shared/test';
import { GraphQLObjectType } from 'graphql';
import { buildAdminSchema } from '../schema/build-schema.js';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { codes, startTestAdmin, type GraphQLErrorBody, type TestAdmin } from '../test/harness.js';
import { generateApiToken } from './api-token.js';
import { levelCovers, OPERATION_PERMISSIONS, ROLE_PERMISSIONS, type OperationRule } from './permissions.js';

// Every operation for every role, twice over (a sign-in and an API token): minutes on a busy machine.
jest.setTimeout(360_000);

const PASSWORD = 'a long enough password 42';
const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';

describe('the permission table', () => {
  it('has an entry for every Query and Mutation field of the built schema, and none for a field that is gone', async () => {
    const schema = await buildAdminSchema();
    for (const root of ['Query', 'Mutation'] as const) {
      const type = schema.getType(root);
      expect(type).toBeInstanceOf(GraphQLObjectType);
      const fields = Object.keys((type as GraphQLObjectType).getFields()).sort();
      expect(Object.keys(OPERATION_PERMISSIONS[root]).sort()).toEqual(fields);
    }
  });
});

/** The objects one call works on: a fresh site with a form, a submission, a webhook and a delivery. */
interface World {
  siteId: string;
  formId: string;
  submissionId: string;
  webhookId: string;
  deliveryId: string;
  /** A live API token of the caller (what revokeApiToken revokes). */
  ownTokenId: string;
  /** A member of role `member` that member management works on. */
  teamMemberId: string;
  /** A member of role `member` with status `invited`, for resending and revoking. */
  invitedMemberId: string;
}

interface Call {
  query: string;
  variables?: Record<string, unknown>;
}

const UUID_NOBODY_HAS = '00000000-0000-4000-8000-000000000000';

// How to call each operation (not what it answers: that comes from the table). `login` and
// `logout` are public and played by the authentication tests.
const CALLS: Record<string, (world: World) => Call> = {
  me: () => ({ query: '{ me { id role } }' }),
  limits: () => ({ query: '{ limits { __typename } }' }),
  apiTokens: () => ({ query: '{ apiTokens { id } }' }),
  sites: () => ({ query: '{ sites { id } }' }),
  site: (w) => ({ query: 'query($id: ID!) { site(id: $id) { id } }', variables: { id: w.siteId } }),
  siteApiView: (w) => ({
    query: 'query($id: ID!) { siteApiView(siteId: $id) { token } }',
    variables: { id: w.siteId },
  }),
  forms: (w) => ({ query: 'query($id: ID!) { forms(siteId: $id) { id } }', variables: { id: w.siteId } }),
  form: (w) => ({ query: 'query($id: ID!) { form(id: $id) { id } }', variables: { id: w.formId } }),
  submissions: (w) => ({
    query: 'query($id: ID!) { submissions(formId: $id) { totalCount } }',
    variables: { id: w.formId },
  }),
  submission: (w) => ({ query: 'query($id: ID!) { submission(id: $id) { id } }', variables: { id: w.submissionId } }),
  submissionCounts: (w) => ({
    query: 'query($id: ID!) { submissionCounts(formId: $id) { new unread } }',
    variables: { id: w.formId },
  }),
  submissionAssignees: (w) => ({
    query: 'query($id: ID!) { submissionAssignees(formId: $id) { id name } }',
    variables: { id: w.formId },
  }),
  setSubmissionStatus: (w) => ({
    query: 'mutation($id: ID!) { setSubmissionStatus(id: $id, status: open) { id } }',
    variables: { id: w.submissionId },
  }),
  setSubmissionsStatus: (w) => ({
    query: 'mutation($formId: ID!, $ids: [ID!]!) { setSubmissionsStatus(formId: $formId, ids: $ids, status: done) }',
    variables: { formId: w.formId, ids: [w.submissionId] },
  }),
  assignSubmission: (w) => ({
    query: 'mutation($id: ID!) { assignSubmission(id: $id, assigneeId: null) { id } }',
    variables: { id: w.submissionId },
  }),
  addSubmissionNote: (w) => ({
    query: 'mutation($id: ID!) { addSubmissionNote(id: $id, text: "Walk") { id } }',
    variables: { id: w.submissionId },
  }),
  markSubmissionsRead: (w) => ({
    query: 'mutation($formId: ID!, $ids: [ID!]!) { markSubmissionsRead(formId: $formId, ids: $ids) }',
    variables: { formId: w.formId, ids: [w.submissionId] },
  }),
  assignSubmissions: (w) => ({
    query: 'mutation($formId: ID!, $ids: [ID!]!) { assignSubmissions(formId: $formId, ids: $ids, assigneeId: null) }',
    variables: { formId: w.formId, ids: [w.submissionId] },
  }),
  markSubmissionsSpam: (w) => ({
    query: 'mutation($formId: ID!, $ids: [ID!]!) { markSubmissionsSpam(formId: $formId, ids: $ids) }',
    variables: { formId: w.formId, ids: [w.submissionId] },
  }),
  deleteSubmissions: (w) => ({
    query: 'mutation($formId: ID!, $ids: [ID!]!) { deleteSubmissions(formId: $formId, ids: $ids) }',
    variables: { formId: w.formId, ids: [w.submissionId] },
  }),
  webhooks: (w) => ({ query: 'query($id: ID!) { webhooks(formId: $id) { id } }', variables: { id: w.formId } }),
  webhook: (w) => ({ query: 'query($id: ID!) { webhook(id: $id) { id } }', variables: { id: w.webhookId } }),
  deliveries: (w) => ({
    query: 'query($id: ID!) { deliveries(webhookId: $id) { id } }',
    variables: { id: w.webhookId },
  }),
  emailDeliveries: (w) => ({
    query: 'query($id: ID!) { emailDeliveries(formId: $id) { id } }',
    variables: { id: w.formId },
  }),
  submissionStats: () => ({ query: '{ submissionStats { days } }' }),
  refusalStats: () => ({ query: '{ refusalStats { days } }' }),
  erasureCandidates: () => ({ query: '{ erasureCandidates(value: "nobody@example.com") { id } }' }),
  auditLog: () => ({ query: '{ auditLog(first: 1) { pageInfo { hasNextPage } } }' }),
  verifyAuditLog: () => ({ query: '{ verifyAuditLog { valid } }' }),
  // A wrong current password: the call is let through (or not) without changing anything.
  changePassword: () => ({
    query:
      'mutation { changePassword(currentPassword: "not the password", newPassword: "another long password") { token } }',
  }),
  createApiToken: () => ({ query: 'mutation { createApiToken(name: "walk") { apiToken { id } } }' }),
  // A wrong password, and (at an IP address, without a passkey) no passkey to confirm with.
  confirmSignIn: () => ({ query: 'mutation { confirmSignIn(password: "not the password") { token } }' }),
  startPasskeyConfirmation: () => ({ query: 'mutation { startPasskeyConfirmation }' }),
  revokeApiToken: (w) => ({ query: 'mutation($id: ID!) { revokeApiToken(id: $id) }', variables: { id: w.ownTokenId } }),
  createSite: () => ({ query: 'mutation { createSite(input: { name: "Walk" }) { id } }' }),
  updateSite: (w) => ({
    query: 'mutation($id: ID!) { updateSite(id: $id, input: { name: "Renamed" }) { id } }',
    variables: { id: w.siteId },
  }),
  deleteSite: (w) => ({ query: 'mutation($id: ID!) { deleteSite(id: $id) }', variables: { id: w.siteId } }),
  rotateSiteToken: (w) => ({
    query: 'mutation($id: ID!) { rotateSiteToken(siteId: $id) { token } }',
    variables: { id: w.siteId },
  }),
  createForm: (w) => ({
    query: 'mutation($id: ID!) { createForm(input: { siteId: $id, name: "Walk" }) { id } }',
    variables: { id: w.siteId },
  }),
  updateForm: (w) => ({
    query: 'mutation($id: ID!) { updateForm(id: $id, input: { name: "Renamed" }) { id } }',
    variables: { id: w.formId },
  }),
  deleteForm: (w) => ({ query: 'mutation($id: ID!) { deleteForm(id: $id) }', variables: { id: w.formId } }),
  createSubmissionExport: (w) => ({
    query: 'mutation($id: ID!) { createSubmissionExport(formId: $id, format: CSV) { url } }',
    variables: { id: w.formId },
  }),
  markNotSpam: (w) => ({
    query: 'mutation($id: ID!) { markNotSpam(id: $id) { id } }',
    variables: { id: w.submissionId },
  }),
  deleteSubmission: (w) => ({
    query: 'mutation($id: ID!) { deleteSubmission(id: $id) }',
    variables: { id: w.submissionId },
  }),
  eraseSubmissions: () => ({
    query: 'mutation($ids: [ID!]!) { eraseSubmissions(ids: $ids) { notFoundIds } }',
    variables: { ids: [UUID_NOBODY_HAS] },
  }),
  createWebhook: (w) => ({
    query:
      'mutation($id: ID!) { createWebhook(input: { formId: $id, url: "https://hooks.example.com/in" }) { secret } }',
    variables: { id: w.formId },
  }),
  updateWebhook: (w) => ({
    query: 'mutation($id: ID!) { updateWebhook(id: $id, input: { enabled: false }) { id } }',
    variables: { id: w.webhookId },
  }),
  deleteWebhook: (w) => ({ query: 'mutation($id: ID!) { deleteWebhook(id: $id) }', variables: { id: w.webhookId } }),
  rotateWebhookSecret: (w) => ({
    query: 'mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }',
    variables: { id: w.webhookId },
  }),
  sendTestWebhook: (w) => ({
    query: 'mutation($id: ID!) { sendTestWebhook(id: $id) { id } }',
    variables: { id: w.webhookId },
  }),
  redeliver: (w) => ({
    query: 'mutation($id: ID!) { redeliver(deliveryId: $id) { id } }',
    variables: { id: w.deliveryId },
  }),
  members: () => ({ query: '{ members { id } }' }),
  member: (w) => ({ query: 'query($id: ID!) { member(id: $id) { id } }', variables: { id: w.teamMemberId } }),
  createMember: () => ({
    query:
      'mutation($email: String!) { createMember(input: { email: $email, name: "Walk", role: member, grants: [] }) { member { id } } }',
    variables: { email: `walk-${randomUUID()}@example.com` },
  }),
  updateMember: (w) => ({
    query: 'mutation($id: ID!) { updateMember(id: $id, input: { name: "Renamed" }) { id } }',
    variables: { id: w.teamMemberId },
  }),
  removeMember: (w) => ({ query: 'mutation($id: ID!) { removeMember(id: $id) }', variables: { id: w.teamMemberId } }),
  inviteMember: () => ({
    query: 'mutation($email: String!) { inviteMember(input: { email: $email, role: member }) { member { id } } }',
    variables: { email: `invite-${randomUUID()}@example.com` },
  }),
  resendInvitation: (w) => ({
    query: 'mutation($id: ID!) { resendInvitation(id: $id) { member { id } } }',
    variables: { id: w.invitedMemberId },
  }),
  revokeInvitation: (w) => ({
    query: 'mutation($id: ID!) { revokeInvitation(id: $id) }',
    variables: { id: w.invitedMemberId },
  }),
  ssoPolicy: () => ({ query: '{ ssoPolicy { passwordSignIn } }' }),
  // Passwords stay allowed: the walk signs in with them.
  updateSsoPolicy: () => ({ query: 'mutation { updateSsoPolicy(passwordSignIn: true) { passwordSignIn } }' }),
  exportAuditLog: () => ({ query: 'mutation { exportAuditLog { entries } }' }),
  teamPolicy: () => ({ query: '{ teamPolicy { requireSecondFactor } }' }),
  startTwoFactorEnrolment: () => ({ query: 'mutation { startTwoFactorEnrolment { otpauthUri } }' }),
  // A wrong code, or none to check: each is let through (or not) without changing anything.
  confirmTwoFactor: () => ({ query: 'mutation { confirmTwoFactor(code: "not a code") { codes } }' }),
  disableTwoFactor: () => ({ query: 'mutation { disableTwoFactor(code: "not a code") }' }),
  regenerateRecoveryCodes: () => ({ query: 'mutation { regenerateRecoveryCodes(code: "not a code") { codes } }' }),
  resetMemberTwoFactor: (w) => ({
    query: 'mutation($id: ID!) { resetMemberTwoFactor(id: $id) { id } }',
    variables: { id: w.teamMemberId },
  }),
  resetMemberPassword: (w) => ({
    query: 'mutation($id: ID!) { resetMemberPassword(id: $id) { emailSent } }',
    variables: { id: w.teamMemberId },
  }),
  requestPasswordReset: () => ({ query: 'mutation { requestPasswordReset(email: "nobody@example.com") }' }),
  resetPassword: () => ({
    query: 'mutation { resetPassword(token: "not a token", newPassword: "a long enough password") }',
  }),
  ssoSecondFactor: () => ({ query: '{ ssoSecondFactor { challenge } }' }),
  unlinkSsoAccount: (w) => ({
    query: 'mutation($id: ID!) { unlinkSsoAccount(id: $id) { id } }',
    variables: { id: w.teamMemberId },
  }),
  updateTeamPolicy: () => ({
    query: 'mutation { updateTeamPolicy(input: { requireSecondFactor: false }) { requireSecondFactor } }',
  }),
  updateAccount: () => ({ query: 'mutation { updateAccount(input: { name: "Walk" }) { id } }' }),
  passkeys: () => ({ query: '{ passkeys { id } }' }),
  // Each change it checks needs its mutation's permission: setup/validate-setup.test.ts.
  validateSetup: () => ({ query: '{ validateSetup(changes: []) { change } }' }),
  // The walk reaches the admin at an IP address, where passkeys are refused (BAD_USER_INPUT), and a
  // passkey of nobody is not found: refused for their arguments once let through.
  startPasskeyRegistration: () => ({ query: 'mutation { startPasskeyRegistration }' }),
  finishPasskeyRegistration: () => ({
    query: 'mutation { finishPasskeyRegistration(name: "Walk", response: {}) { id } }',
  }),
  renamePasskey: () => ({
    query: 'mutation($id: ID!) { renamePasskey(id: $id, name: "Walk") { id } }',
    variables: { id: randomUUID() },
  }),
  removePasskey: () => ({ query: 'mutation($id: ID!) { removePasskey(id: $id) }', variables: { id: randomUUID() } }),
};

/** Calls refused for their arguments (a wrong password or code), not for the caller, when let through. */
const REFUSED_FOR_ARGUMENTS = new Set([
  'changePassword',
  'confirmSignIn',
  'startPasskeyConfirmation',
  'confirmTwoFactor',
  'disableTwoFactor',
  'regenerateRecoveryCodes',
  'startPasskeyRegistration',
  'finishPasskeyRegistration',
  'renamePasskey',
  'removePasskey',
]);

type Outcome = 'allowed' | 'forbidden' | 'hidden';

/** What the table says a caller gets: `level` is their grant on the site the call is about. */
function expectedOutcome(
  rule: OperationRule,
  role: MemberRole,
  level: SiteGrantLevel | null,
  viaToken: boolean,
): Outcome {
  if (rule.permission === 'public') {
    throw new Error('public operations are not walked');
  }
  if (!('site' in rule)) {
    if (rule.login === true && viaToken) {
      return 'forbidden';
    }
    return ROLE_PERMISSIONS[role].includes(rule.permission) ? 'allowed' : 'forbidden';
  }
  const reach = role === 'member' ? level : 'manage';
  if (reach === null) {
    return 'hidden';
  }
  return levelCovers(reach, rule.permission) ? 'allowed' : 'forbidden';
}

/** What a caller got, as the table's words: refused, answered as if absent, or answered. */
function outcomeOf(field: string, result: { data: any; errors?: unknown[] }, world: World): Outcome {
  const found = codes(result as Parameters<typeof codes>[0]);
  if (found.includes('FORBIDDEN')) {
    return 'forbidden';
  }
  if (REFUSED_FOR_ARGUMENTS.has(field)) {
    // Let through: refused for the wrong current password or code, not for the caller.
    return found.length === 1 ? 'allowed' : 'forbidden';
  }
  if (found.includes('NOT_FOUND')) {
    return 'hidden';
  }
  const value = result.data?.[field];
  if (field === 'sites') {
    return (value as { id: string }[]).some((site) => site.id === world.siteId) ? 'allowed' : 'hidden';
  }
  if (found.length > 0) {
    throw new Error(`${field}: unexpected errors ${JSON.stringify(result.errors)}`);
  }
  return value === null || value === false ? 'hidden' : 'allowed';
}

interface Caller {
  label: string;
  role: MemberRole;
  /** The level of a `member` on the granted site (owners and admins have no grants). */
  grant: SiteGrantLevel | null;
  memberId: string;
  sessionToken: string;
  apiToken: string;
}

describe(`roles and site grants over the admin API on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let owner: Caller;
  let teamAdmin: Caller;
  let reader: Caller;
  let manager: Caller;

  async function addMember(email: string, role: MemberRole): Promise<string> {
    const em = admin.services.db.em.fork();
    const member = em.create(AdminUserSchema, { email, name: email, role, passwordHash: await hashPassword(PASSWORD) });
    await em.flush();
    return member.id;
  }

  async function grant(memberId: string, siteId: string, level: SiteGrantLevel): Promise<void> {
    const em = admin.services.db.em.fork();
    em.create(MemberSiteGrantSchema, {
      member: em.getReference(AdminUserSchema, memberId),
      site: em.getReference(SiteSchema, siteId),
      level,
    });
    await em.flush();
  }

  async function caller(
    label: string,
    email: string,
    role: MemberRole,
    grantLevel: SiteGrantLevel | null,
    existingId?: string,
  ): Promise<Caller> {
    const memberId = existingId ?? (await addMember(email, role));
    const sessionToken = await admin.login(email, existingId === undefined ? PASSWORD : undefined);
    const minted = await admin.gql('mutation { createApiToken(name: "integration") { token } }', {}, sessionToken);
    return { label, role, grant: grantLevel, memberId, sessionToken, apiToken: minted.data?.createApiToken.token };
  }

  /** The console's session cookie (`intake_session=…`) of a member signing in. */
  async function consoleSession(email: string): Promise<string> {
    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: LOGIN, variables: { email, password: PASSWORD } }),
    });
    const line = response.headers.getSetCookie().find((value) => value.startsWith('intake_session='));
    return line!.split(';')[0]!;
  }

  async function withCookie(cookie: string, query: string, variables: Record<string, unknown> = {}) {
    const response = await fetch(`${admin.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as { errors?: GraphQLErrorBody[] } };
  }

  /** A fresh site with everything a call may touch; granted to the member callers when `granted`. */
  async function makeWorld(granted: boolean, forCaller: Caller): Promise<World> {
    const { site } = await makeSite(admin.services);
    const form = await makeForm(admin.services, site);
    const { submission } = await makeSubmission(admin.services, form, { spam: true });
    const { webhook } = await makeWebhook(admin.services, form, { url: 'https://hooks.example.com/in' });
    const em = admin.services.db.em.fork();
    const delivery = em.create(DeliverySchema, {
      channel: 'webhook',
      form: em.getReference(FormSchema, form.id),
      webhook: em.getReference(WebhookSchema, webhook.id),
      submission: em.getReference(SubmissionSchema, submission.id),
      eventType: 'submission.created',
      status: 'failed',
      nextAttemptAt: new Date(),
    });
    const ownToken = em.create(ApiTokenSchema, {
      name: 'to revoke',
      tokenHash: generateApiToken().tokenHash,
      createdBy: em.getReference(AdminUserSchema, forCaller.memberId),
    });
    const teamMember = em.create(AdminUserSchema, {
      email: `team-${randomUUID()}@example.com`,
      name: 'Team member',
      role: 'member',
      passwordHash: 'not a password hash',
    });
    const invitedMember = em.create(AdminUserSchema, {
      email: `invited-${randomUUID()}@example.com`,
      role: 'member',
      status: 'invited',
      passwordHash: 'not a password hash',
    });
    if (granted) {
      // In the world's one flush: the walk makes hundreds of worlds.
      for (const [member, level] of [
        [reader, 'read'],
        [manager, 'manage'],
      ] as const) {
        em.create(MemberSiteGrantSchema, {
          member: em.getReference(AdminUserSchema, member.memberId),
          site: em.getReference(SiteSchema, site.id),
          level,
        });
      }
    }
    await em.flush();
    return {
      siteId: site.id,
      formId: form.id,
      submissionId: submission.id,
      webhookId: webhook.id,
      deliveryId: delivery.id,
      ownTokenId: ownToken.id,
      teamMemberId: teamMember.id,
      invitedMemberId: invitedMember.id,
    };
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    const ownerId = (await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { role: 'owner' })).id;
    owner = await caller('owner', 'admin@example.com', 'owner', null, ownerId);
    teamAdmin = await caller('admin', 'second@example.com', 'admin', null);
    reader = await caller('read member', 'reader@example.com', 'member', 'read');
    manager = await caller('manage member', 'manager@example.com', 'member', 'manage');
  }, 120_000);

  afterAll(async () => {
    await admin?.close();
  }, 30_000);

  it('answers every operation for every role as the table says, with a sign-in and with an API token', async () => {
    const mismatches: string[] = [];
    let checked = 0;
    const callers = [owner, teamAdmin, reader, manager];

    async function check(
      field: string,
      rule: OperationRule,
      who: Caller,
      viaToken: boolean,
      granted: boolean,
      world: World,
    ) {
      const { query, variables } = CALLS[field]!(world);
      const result = await admin.gql(query, variables, viaToken ? who.apiToken : who.sessionToken);
      const expected = expectedOutcome(rule, who.role, granted ? who.grant : null, viaToken);
      const got = outcomeOf(field, result, world);
      checked += 1;
      if (got !== expected) {
        const how = `${who.label} ${viaToken ? 'API token' : 'sign-in'} on ${granted ? 'granted' : 'other'} site`;
        mismatches.push(`${field} (${how}): expected ${expected}, got ${got} ${JSON.stringify(result.errors ?? '')}`);
      }
    }

    // The world's grants go with it: each request loads its caller's grants, and kept, the 450
    // worlds made every request load hundreds of them (minutes of this file).
    const dropGrants = (world: World) =>
      admin.services.db.em.fork().nativeDelete(MemberSiteGrantSchema, { site: world.siteId });

    /** The rules of a root with a call written for them; a missing call is a mismatch. */
    function written(root: 'Query' | 'Mutation'): [string, OperationRule][] {
      return (Object.entries(OPERATION_PERMISSIONS[root]) as [string, OperationRule][]).filter(([field, rule]) => {
        if (rule.permission === 'public') {
          return false;
        }
        if (CALLS[field] === undefined) {
          mismatches.push(`${field}: no call written for it in this test`);
          return false;
        }
        return true;
      });
    }
    // A site operation is tried on a granted site and on another one; a team one once (granted).
    const targets = (rule: OperationRule) => ('site' in rule ? [true, false] : [true]);

    // A query changes nothing, so the queries share a world per caller and site: eight worlds
    // instead of one per call.
    const queries = written('Query');
    for (const who of callers) {
      for (const granted of [true, false]) {
        const world = await makeWorld(granted, who);
        for (const [field, rule] of queries.filter(([, rule]) => targets(rule).includes(granted))) {
          for (const viaToken of [false, true]) {
            await check(field, rule, who, viaToken, granted, world);
          }
        }
        await dropGrants(world);
      }
    }
    // A mutation may change or delete what it is given: each call has a world of its own.
    for (const [field, rule] of written('Mutation')) {
      for (const who of callers) {
        for (const viaToken of [false, true]) {
          for (const granted of targets(rule)) {
            const world = await makeWorld(granted, who);
            await check(field, rule, who, viaToken, granted, world);
            await dropGrants(world);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(400);
    // Some 450 calls, each with a world of its own: minutes on PostgreSQL on a busy machine.
  }, 600_000);

  // The cases people ask about, written out: not derived from the table.
  it('keeps a read member to their own site: another site is absent, its token and changes refused', async () => {
    const mine = await makeWorld(true, reader);
    const other = await makeWorld(false, reader);
    for (const token of [reader.sessionToken, reader.apiToken]) {
      const byId = await admin.gql('query($id: ID!) { submission(id: $id) { id } }', { id: other.submissionId }, token);
      expect(byId.errors).toBeUndefined();
      expect(byId.data?.submission).toBeNull();
      const own = await admin.gql('query($id: ID!) { submission(id: $id) { id } }', { id: mine.submissionId }, token);
      expect(own.data?.submission).toEqual({ id: mine.submissionId });

      const sites = await admin.gql('{ sites { id } }', {}, token);
      const ids = (sites.data?.sites as { id: string }[]).map((site) => site.id);
      expect(ids).toContain(mine.siteId);
      expect(ids).not.toContain(other.siteId);

      const apiView = 'query($id: ID!) { siteApiView(siteId: $id) { token } }';
      const ownView = await admin.gql(apiView, { id: mine.siteId }, token);
      expect(codes(ownView)).toEqual(['FORBIDDEN']);
      expect(ownView.data).toBeNull();
      expect(codes(await admin.gql(apiView, { id: other.siteId }, token))).toEqual(['NOT_FOUND']);

      const exportLink = 'mutation($id: ID!) { createSubmissionExport(formId: $id, format: CSV) { url } }';
      expect(codes(await admin.gql(exportLink, { id: other.formId }, token))).toEqual(['NOT_FOUND']);
      const ownExport = await admin.gql(exportLink, { id: mine.formId }, token);
      expect(ownExport.data?.createSubmissionExport.url).toMatch(/\/exports\//);

      const deleting = 'mutation($id: ID!) { deleteSubmission(id: $id) }';
      expect(codes(await admin.gql(deleting, { id: mine.submissionId }, token))).toEqual(['FORBIDDEN']);
      const hidden = await admin.gql(deleting, { id: other.submissionId }, token);
      expect(hidden.data?.deleteSubmission).toBe(false);
    }
    // Nothing was deleted by the refused calls.
    const owners = await admin.gql(
      'query($id: ID!) { submission(id: $id) { id } }',
      { id: other.submissionId },
      owner.sessionToken,
    );
    expect(owners.data?.submission).toEqual({ id: other.submissionId });
  });

  it("lets a member list and revoke only their own API tokens, an owner everyone's", async () => {
    const world = await makeWorld(true, owner);
    const listed = async (token: string) =>
      ((await admin.gql('{ apiTokens { id } }', {}, token)).data?.apiTokens as { id: string }[]).map((t) => t.id);
    expect(await listed(reader.sessionToken)).not.toContain(world.ownTokenId);
    expect(await listed(owner.sessionToken)).toContain(world.ownTokenId);
    const revoke = 'mutation($id: ID!) { revokeApiToken(id: $id) }';
    expect((await admin.gql(revoke, { id: world.ownTokenId }, reader.sessionToken)).data?.revokeApiToken).toBe(false);
    expect((await admin.gql(revoke, { id: world.ownTokenId }, owner.sessionToken)).data?.revokeApiToken).toBe(true);
  });

  it("shrinks a demoted member's API token, sign-in and console session on their next request, and stops them when disabled", async () => {
    const memberId = await addMember('demoted@example.com', 'admin');
    const session = await admin.login('demoted@example.com', PASSWORD);
    const cookie = await consoleSession('demoted@example.com');
    const apiToken = (await admin.gql('mutation { createApiToken(name: "ci") { token } }', {}, session)).data
      ?.createApiToken.token as string;
    const world = await makeWorld(false, owner);
    const rename = 'mutation($id: ID!) { updateSite(id: $id, input: { name: "Renamed" }) { id } }';
    expect((await admin.gql(rename, { id: world.siteId }, apiToken)).data?.updateSite).toEqual({ id: world.siteId });

    const em = admin.services.db.em.fork();
    await em.nativeUpdate(AdminUserSchema, { id: memberId }, { role: 'member' });
    await grant(memberId, world.siteId, 'read');
    const cookieRename = await withCookie(cookie, rename, { id: world.siteId });
    expect(cookieRename.body.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
    for (const token of [apiToken, session]) {
      expect(codes(await admin.gql(rename, { id: world.siteId }, token))).toEqual(['FORBIDDEN']);
      expect(
        (await admin.gql('query($id: ID!) { site(id: $id) { id } }', { id: world.siteId }, token)).data?.site,
      ).toEqual({
        id: world.siteId,
      });
      expect(codes(await admin.gql('{ erasureCandidates(value: "x@example.com") { id } }', {}, token))).toEqual([
        'FORBIDDEN',
      ]);
    }

    await em.nativeUpdate(AdminUserSchema, { id: memberId }, { status: 'disabled' });
    for (const token of [apiToken, session]) {
      const refused = await admin.gql('{ me { id } }', {}, token);
      expect(refused.status).toBe(401);
      expect(codes(refused)).toEqual(['UNAUTHENTICATED']);
    }
    const byCookie = await withCookie(cookie, '{ me { id } }');
    expect(byCookie.status).toBe(401);
    const login = await admin.gql(LOGIN, { email: 'demoted@example.com', password: PASSWORD });
    expect(codes(login)).toEqual(['UNAUTHENTICATED']);
  });
});
