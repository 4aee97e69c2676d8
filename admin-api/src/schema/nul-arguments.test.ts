// U+0000 in an argument, over real HTTP on the database under test. PostgreSQL cannot hold it in
// text, and a query carrying one failed as if the database were down (SERVICE_UNAVAILABLE). A NUL
// in the sign-in e-mail is a failed sign-in like any other (same answer, counted for the lockout,
// recorded in the audit log); anywhere else it is the caller's mistake: BAD_USER_INPUT, HTTP 400,
// naming the argument and echoing nothing of its value.
import { jest } from '@jest/globals';
import { AuditEntrySchema, type Form, type Site } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS } from '../access/login-policy.js';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { ADMIN_EMAIL, codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

// Each failed sign-in costs one scrypt verification.
jest.setTimeout(120_000);

const NUL = '\u0000';
const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';

describe(`a NUL character in an argument, on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  let site: Site;
  let form: Form;

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
    ({ site } = await makeSite(admin.services));
    form = await makeForm(admin.services, site);
    await makeSubmission(admin.services, form, { data: { email: 'someone@example.com' } });
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('in the sign-in e-mail is a failed sign-in: the wrong-password answer, audited, counted for the lockout', async () => {
    const wrong = await admin.gql(LOGIN, { email: ADMIN_EMAIL, password: 'not the password' });
    const email = `${ADMIN_EMAIL}${NUL}`;
    const withNul = await admin.gql(LOGIN, { email, password: 'not the password' });
    const literal = await admin.gql('mutation { login(email: "a\\u0000b@example.com", password: "x") { token } }');
    for (const result of [withNul, literal]) {
      expect({ status: result.status, codes: codes(result), message: result.errors?.[0]?.message }).toEqual({
        status: wrong.status,
        codes: ['UNAUTHENTICATED'],
        message: wrong.errors?.[0]?.message,
      });
    }
    // Recorded like any failed sign-in for an unknown account.
    const entry = await admin.services.db.em
      .fork()
      .findOneOrFail(AuditEntrySchema, { requestId: withNul.headers.get('x-request-id')! });
    expect(entry).toMatchObject({ action: 'login', outcome: 'failure', actorName: 'unknown account' });

    // Counted against that e-mail and address like the others: the limit applies, then 429.
    for (let attempt = 1; attempt < LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS; attempt += 1) {
      expect(codes(await admin.gql(LOGIN, { email, password: `guess ${attempt}` }))).toEqual(['UNAUTHENTICATED']);
    }
    const limited = await admin.gql(LOGIN, { email, password: 'one more' });
    expect(limited.status).toBe(429);
    expect(codes(limited)).toEqual(['RATE_LIMITED']);
    // The database was never in trouble: the real account signs in.
    await expect(admin.login()).resolves.toEqual(expect.any(String));
  });

  it.each([
    [
      'erasureCandidates(value)',
      'query($v: String!) { erasureCandidates(value: $v) { id } }',
      { v: `jane${NUL}@x.org` },
    ],
    [
      'auditLog(filter.actor)',
      'query($v: String) { auditLog(filter: { actor: $v }) { edges { cursor } } }',
      { v: NUL },
    ],
    [
      'auditLog(filter.action)',
      'query($v: String) { auditLog(filter: { action: $v }) { edges { cursor } } }',
      { v: `login${NUL}` },
    ],
    [
      'auditLog(filter.objectType)',
      'query($v: String) { auditLog(filter: { objectType: $v }) { edges { cursor } } }',
      { v: `Site${NUL}` },
    ],
    [
      'auditLog(filter.objectId)',
      'query($v: String) { auditLog(filter: { objectId: $v }) { edges { cursor } } }',
      { v: `x${NUL}` },
    ],
    ['auditLog(after)', 'query($v: String) { auditLog(after: $v) { edges { cursor } } }', { v: `x${NUL}` }],
    [
      'submissions(filter.query)',
      'query($f: ID!, $v: String) { submissions(formId: $f, filter: { query: $v }) { totalCount } }',
      { v: `some${NUL}one` },
    ],
    ['createSite(input.name)', 'mutation($v: String!) { createSite(input: { name: $v }) { id } }', { v: `A${NUL}B` }],
    [
      'createSite(input.domain)',
      'mutation($v: String) { createSite(input: { name: "Ok", domain: $v }) { id } }',
      { v: `example${NUL}.com` },
    ],
    [
      'updateForm(input.blockedWords)',
      'mutation($f: ID!, $v: [String!]) { updateForm(id: $f, input: { blockedWords: $v }) { id } }',
      { v: ['fine', `bad${NUL}`] },
    ],
    ['createApiToken(name)', 'mutation($v: String!) { createApiToken(name: $v) { token } }', { v: `ci${NUL}` }],
    ['an ID argument', 'query($v: ID!) { form(id: $v) { id } }', { v: `${NUL}` }],
    ['a string literal in the document', 'query { erasureCandidates(value: "jane\\u0000@x.org") { id } }', {}],
    ['a variable default', 'query($v: String! = "jane\\u0000@x.org") { erasureCandidates(value: $v) { id } }', {}],
    [
      'a fragment',
      'query { ...Candidates } fragment Candidates on Query { erasureCandidates(value: "jane\\u0000@x.org") { id } }',
      {},
    ],
  ])('in %s is BAD_USER_INPUT with HTTP 400, never SERVICE_UNAVAILABLE', async (_where, query, variables) => {
    const result = await admin.gql(query, { f: form.id, ...variables }, token);
    expect(codes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.status).toBe(400);
    expect(JSON.stringify(result.errors)).not.toMatch(/\\u0000|jane|some|example/);
  });

  it('names the argument, through input objects and lists', async () => {
    const result = await admin.gql(
      'mutation($f: ID!, $v: [String!]) { updateForm(id: $f, input: { blockedWords: $v }) { id } }',
      { f: form.id, v: ['fine', `bad${NUL}`] },
      token,
    );
    expect(result.errors?.[0]?.message).toBe('input.blockedWords.1 must not contain a NUL character (U+0000)');
    expect(result.errors?.[0]?.extensions?.field).toBe('input.blockedWords.1');
  });
});
