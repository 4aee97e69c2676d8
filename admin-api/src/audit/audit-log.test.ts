// The audit log through the admin API over real HTTP: every executed mutation root field leaves
// exactly one entry naming the actor, the action, the object, the client address (via a trusted
// proxy) and the request id the client got; no entry holds any secret or submitted value the test
// used; and the auditLog query pages and filters them, for administrators only.
import { jest } from '@jest/globals';
import { AdminUserSchema, AuditEntrySchema, SubmissionSchema, type AuditEntry } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(120_000);

const ADDRESS = '203.0.113.77';
const NEW_PASSWORD = 'a brand new passphrase 42';
const WEBHOOK_URL_SECRET = 'whurl-query-s3cret';
const CAPTCHA_SECRET = 'captcha-s3cret-value-9f8e';
const SUBMITTED_NAME = 'Zelda Submitterson';
const SUBMITTED_MESSAGE = 'my private message 5a4b';
const SPAM_MESSAGE = 'buy cheap things 7c6d';

interface Call {
  status: number;
  data: Record<string, any> | null | undefined;
  errors: { extensions?: { code?: string } }[] | undefined;
  requestId: string;
  setCookie: string | null;
}

let admin: TestAdmin;
/** Every secret and submitted value this file handles; no audit entry may contain any of them. */
const secrets = new Set<string>([ADMIN_PASSWORD, NEW_PASSWORD, WEBHOOK_URL_SECRET, CAPTCHA_SECRET]);
secrets.add(SUBMITTED_NAME).add(SUBMITTED_MESSAGE).add(SPAM_MESSAGE);

async function call(
  query: string,
  variables: Record<string, unknown> = {},
  auth: { token?: string; cookie?: string } = {},
): Promise<Call> {
  const response = await fetch(`${admin.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': ADDRESS,
      ...(auth.token === undefined ? {} : { authorization: `Bearer ${auth.token}` }),
      ...(auth.cookie === undefined ? {} : { cookie: auth.cookie }),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, any> | null; errors?: Call['errors'] };
  return {
    status: response.status,
    data: body.data,
    errors: body.errors,
    requestId: response.headers.get('x-request-id') ?? '',
    setCookie: response.headers.get('set-cookie'),
  };
}

async function entriesOf(requestId: string): Promise<AuditEntry[]> {
  expect(requestId).not.toBe('');
  return admin.services.db.em.fork().find(AuditEntrySchema, { requestId }, { orderBy: { at: 'asc', id: 'asc' } });
}

/** The one entry of a request, checked for the address and request id every entry must carry. */
async function onlyEntry(requestId: string): Promise<AuditEntry> {
  const entries = await entriesOf(requestId);
  expect(entries).toHaveLength(1);
  const entry = entries[0]!;
  expect(entry.address).toBe(ADDRESS);
  expect(entry.requestId).toBe(requestId);
  return entry;
}

const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';

beforeAll(async () => {
  admin = await startTestAdmin({ TRUST_PROXY: 'true' });
}, 60_000);

afterAll(async () => {
  await admin?.close();
});

describe(`the audit log on ${testDriverName()}`, () => {
  let adminId: string;
  let token: string;
  let executedMutations = 0;

  /** A mutation call that the test counts: one entry each. */
  async function mutate(
    query: string,
    variables?: Record<string, unknown>,
    auth?: { token?: string; cookie?: string },
  ) {
    executedMutations += 1;
    return call(query, variables, auth);
  }

  beforeAll(async () => {
    adminId = (await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { email: ADMIN_EMAIL })).id;
  });

  it('records sign-ins: the admin on success; on failure the targeted account, never what was typed', async () => {
    const ok = await mutate(LOGIN, { email: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD });
    token = ok.data?.login.token;
    secrets.add(token);
    expect(await onlyEntry(ok.requestId)).toMatchObject({
      actorKind: 'admin',
      actorId: adminId,
      actorName: ADMIN_EMAIL,
      action: 'login',
      objectType: 'AdminUser',
      objectId: adminId,
      outcome: 'success',
      errorCode: null,
    });

    const wrong = await mutate(LOGIN, { email: ADMIN_EMAIL, password: 'not-the-password-31' });
    secrets.add('not-the-password-31');
    expect(await onlyEntry(wrong.requestId)).toMatchObject({
      actorKind: 'anonymous',
      actorId: adminId,
      actorName: ADMIN_EMAIL,
      action: 'login',
      outcome: 'failure',
      errorCode: 'UNAUTHENTICATED',
    });

    // A password typed into the e-mail field must not end up in the log.
    const mistyped = await mutate(LOGIN, { email: 'typed-password-in-email-88', password: 'x' });
    secrets.add('typed-password-in-email-88');
    expect(await onlyEntry(mistyped.requestId)).toMatchObject({
      actorKind: 'anonymous',
      actorId: null,
      actorName: 'unknown account',
      objectId: null,
      outcome: 'failure',
    });
  });

  it('records each site, form, webhook, submission and token mutation once, with its object', async () => {
    const auth = { token };
    const created = await mutate('mutation { createSite(input: { name: "Audit site" }) { id } }', {}, auth);
    const siteId = created.data?.createSite.id as string;
    expect(await onlyEntry(created.requestId)).toMatchObject({
      actorKind: 'admin',
      actorName: ADMIN_EMAIL,
      action: 'createSite',
      objectType: 'Site',
      objectId: siteId,
      outcome: 'success',
      // Nothing but strings (name, an unset domain) to keep.
      details: null,
    });

    const updated = await mutate(
      'mutation($id: ID!) { updateSite(id: $id, input: { name: "Renamed" }) { id } }',
      {
        id: siteId,
      },
      auth,
    );
    expect(await onlyEntry(updated.requestId)).toMatchObject({
      action: 'updateSite',
      objectType: 'Site',
      objectId: siteId,
    });

    const rotated = await mutate('mutation($id: ID!) { rotateSiteToken(siteId: $id) { token } }', { id: siteId }, auth);
    secrets.add(rotated.data?.rotateSiteToken.token);
    expect(await onlyEntry(rotated.requestId)).toMatchObject({
      action: 'rotateSiteToken',
      objectType: 'Site',
      objectId: siteId,
    });

    const form = await mutate(
      'mutation($siteId: ID!) { createForm(input: { siteId: $siteId, name: "Contact" }) { id } }',
      { siteId },
      auth,
    );
    const formId = form.data?.createForm.id as string;
    const formEntry = await onlyEntry(form.requestId);
    expect(formEntry).toMatchObject({ action: 'createForm', objectType: 'Form', objectId: formId });
    expect(formEntry.details).toMatchObject({ 'input.siteId': siteId });

    const captcha = await mutate(
      'mutation($id: ID!, $secret: String!) { updateForm(id: $id, input: { captchaProvider: TURNSTILE, captchaSecret: $secret }) { id } }',
      { id: formId, secret: CAPTCHA_SECRET },
      auth,
    );
    expect(captcha.errors).toBeUndefined();
    const captchaEntry = await onlyEntry(captcha.requestId);
    expect(captchaEntry).toMatchObject({ action: 'updateForm', objectType: 'Form', objectId: formId });
    // Enum values are safe to keep; the secret beside them is not kept.
    expect(captchaEntry.details).toMatchObject({ 'input.captchaProvider': 'TURNSTILE' });
    const captchaOff = await mutate(
      'mutation($id: ID!) { updateForm(id: $id, input: { captchaProvider: null }) { id } }',
      { id: formId },
      auth,
    );
    // A null argument is an action (turning the CAPTCHA off); a null in the result is not kept.
    const captchaOffEntry = await onlyEntry(captchaOff.requestId);
    expect(captchaOffEntry.details).toMatchObject({ 'input.captchaProvider': null, 'result.captchaSecretSet': false });
    expect(captchaOffEntry.details).not.toHaveProperty('result.captchaProvider');

    const webhook = await mutate(
      'mutation($formId: ID!, $url: String!) { createWebhook(input: { formId: $formId, url: $url }) { secret webhook { id } } }',
      { formId, url: `https://hooks.example.com/in?key=${WEBHOOK_URL_SECRET}` },
      auth,
    );
    const webhookId = webhook.data?.createWebhook.webhook.id as string;
    secrets.add(webhook.data?.createWebhook.secret);
    expect(await onlyEntry(webhook.requestId)).toMatchObject({
      action: 'createWebhook',
      objectType: 'Webhook',
      objectId: webhookId,
    });

    const disabled = await mutate(
      'mutation($id: ID!) { updateWebhook(id: $id, input: { enabled: false }) { id } }',
      { id: webhookId },
      auth,
    );
    const disabledEntry = await onlyEntry(disabled.requestId);
    expect(disabledEntry).toMatchObject({ action: 'updateWebhook', objectType: 'Webhook', objectId: webhookId });
    expect(disabledEntry.details).toMatchObject({ 'input.enabled': false, 'result.enabled': false });
    await mutate(
      'mutation($id: ID!) { updateWebhook(id: $id, input: { enabled: true }) { id } }',
      { id: webhookId },
      auth,
    );

    const rotatedSecret = await mutate(
      'mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }',
      { id: webhookId },
      auth,
    );
    secrets.add(rotatedSecret.data?.rotateWebhookSecret.secret);
    expect(await onlyEntry(rotatedSecret.requestId)).toMatchObject({
      action: 'rotateWebhookSecret',
      objectType: 'Webhook',
      objectId: webhookId,
    });

    const test = await mutate('mutation($id: ID!) { sendTestWebhook(id: $id) { id } }', { id: webhookId }, auth);
    const deliveryId = test.data?.sendTestWebhook.id as string;
    const testEntry = await onlyEntry(test.requestId);
    expect(testEntry).toMatchObject({ action: 'sendTestWebhook', objectType: 'Webhook', objectId: webhookId });

    const redelivered = await mutate(
      'mutation($id: ID!) { redeliver(deliveryId: $id) { id } }',
      { id: deliveryId },
      auth,
    );
    expect(await onlyEntry(redelivered.requestId)).toMatchObject({
      action: 'redeliver',
      objectType: 'Delivery',
      objectId: deliveryId,
    });

    const deletedWebhook = await mutate('mutation($id: ID!) { deleteWebhook(id: $id) }', { id: webhookId }, auth);
    const deletedWebhookEntry = await onlyEntry(deletedWebhook.requestId);
    expect(deletedWebhookEntry).toMatchObject({ action: 'deleteWebhook', objectType: 'Webhook', objectId: webhookId });
    expect(deletedWebhookEntry.details).toEqual({ result: true });

    // Submissions, with values that must never reach the log.
    const site = await makeSite(admin.services);
    const liveForm = await makeForm(admin.services, site.site);
    const { submission } = await makeSubmission(admin.services, liveForm, {
      data: { name: SUBMITTED_NAME, message: SUBMITTED_MESSAGE },
    });
    const spam = await makeSubmission(admin.services, liveForm, {
      data: { name: SUBMITTED_NAME, message: SPAM_MESSAGE },
    });
    await admin.services.db.em
      .fork()
      .nativeUpdate(SubmissionSchema, { id: spam.submission.id }, { spam: true, spamReason: 'honeypot' });

    const notSpam = await mutate(
      'mutation($id: ID!) { markNotSpam(id: $id) { id data } }',
      { id: spam.submission.id },
      auth,
    );
    expect(notSpam.errors).toBeUndefined();
    expect(await onlyEntry(notSpam.requestId)).toMatchObject({
      action: 'markNotSpam',
      objectType: 'Submission',
      objectId: spam.submission.id,
    });

    const deletedSubmission = await mutate(
      'mutation($id: ID!) { deleteSubmission(id: $id) }',
      { id: submission.id },
      auth,
    );
    expect(await onlyEntry(deletedSubmission.requestId)).toMatchObject({
      action: 'deleteSubmission',
      objectType: 'Submission',
      objectId: submission.id,
      outcome: 'success',
    });

    const deletedForm = await mutate('mutation($id: ID!) { deleteForm(id: $id) }', { id: formId }, auth);
    expect(await onlyEntry(deletedForm.requestId)).toMatchObject({
      action: 'deleteForm',
      objectType: 'Form',
      objectId: formId,
    });
    const deletedSite = await mutate('mutation($id: ID!) { deleteSite(id: $id) }', { id: siteId }, auth);
    expect(await onlyEntry(deletedSite.requestId)).toMatchObject({
      action: 'deleteSite',
      objectType: 'Site',
      objectId: siteId,
    });
  });

  it('records API tokens as actors by name, and refused and failed mutations with their code', async () => {
    const minted = await mutate(
      'mutation { createApiToken(name: "ci-deployer") { token apiToken { id } } }',
      {},
      { token },
    );
    const apiToken = minted.data?.createApiToken.token as string;
    const apiTokenId = minted.data?.createApiToken.apiToken.id as string;
    secrets.add(apiToken);
    expect(await onlyEntry(minted.requestId)).toMatchObject({
      action: 'createApiToken',
      objectType: 'ApiToken',
      objectId: apiTokenId,
    });

    const byToken = await mutate(
      'mutation { createSite(input: { name: "By token" }) { id } }',
      {},
      { token: apiToken },
    );
    expect(await onlyEntry(byToken.requestId)).toMatchObject({
      actorKind: 'api_token',
      actorId: apiTokenId,
      // The token and the member it acts for.
      actorName: `ci-deployer (${ADMIN_EMAIL})`,
      action: 'createSite',
      objectId: byToken.data?.createSite.id,
    });

    // Refused by the permission table (a login only): still an attempt worth recording.
    const forbidden = await mutate('mutation { createApiToken(name: "escalate") { token } }', {}, { token: apiToken });
    expect(await onlyEntry(forbidden.requestId)).toMatchObject({
      actorKind: 'api_token',
      action: 'createApiToken',
      outcome: 'failure',
      errorCode: 'FORBIDDEN',
    });

    const missing = await mutate(
      'mutation($id: ID!) { updateSite(id: $id, input: { name: "x" }) { id } }',
      {
        id: '00000000-0000-4000-8000-000000000000',
      },
      { token },
    );
    expect(await onlyEntry(missing.requestId)).toMatchObject({
      action: 'updateSite',
      objectType: 'Site',
      objectId: '00000000-0000-4000-8000-000000000000',
      outcome: 'failure',
      errorCode: 'NOT_FOUND',
    });

    const revoked = await mutate('mutation($id: ID!) { revokeApiToken(id: $id) }', { id: apiTokenId }, { token });
    expect(await onlyEntry(revoked.requestId)).toMatchObject({
      action: 'revokeApiToken',
      objectType: 'ApiToken',
      objectId: apiTokenId,
    });
  });

  it('keeps only well-formed ids from ID arguments: the free text of a refused call is not kept', async () => {
    const personal = 'jane.doe@example.com +49 170 1234567';
    secrets.add(personal);
    const wellFormed = '00000000-0000-4000-8000-0000000000e1';
    const erased = await mutate(
      'mutation($ids: [ID!]!) { eraseSubmissions(ids: $ids) { erasedIds } }',
      { ids: [personal, wellFormed] },
      { token },
    );
    expect(erased.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    const erasure = await onlyEntry(erased.requestId);
    expect(erasure).toMatchObject({ action: 'eraseSubmissions', outcome: 'failure', errorCode: 'BAD_USER_INPUT' });
    expect(erasure.details).toEqual({ ids: [wellFormed] });

    // The object id too, whether the text came as a variable or in the document itself.
    const deleted = await mutate(`mutation { deleteSite(id: ${JSON.stringify(personal)}) }`, {}, { token });
    expect(await onlyEntry(deleted.requestId)).toMatchObject({
      action: 'deleteSite',
      objectType: 'Site',
      objectId: null,
      outcome: 'failure',
      errorCode: 'BAD_USER_INPUT',
    });
    const exported = await mutate(
      'mutation($formId: ID!) { createSubmissionExport(formId: $formId, format: CSV) { url } }',
      { formId: personal },
      { token },
    );
    const exportEntry = await onlyEntry(exported.requestId);
    expect(exportEntry).toMatchObject({ objectId: null, outcome: 'failure', errorCode: 'BAD_USER_INPUT' });
    expect(JSON.stringify([erasure, exportEntry]).toLowerCase()).not.toContain('jane');
  });

  it('records a delete, remove or revoke of an unknown id as a failure (NOT_FOUND), its answer still false', async () => {
    const unknown = '00000000-0000-4000-8000-0000000000d0';
    const { site } = await makeSite(admin.services);
    const gone = await mutate('mutation($id: ID!) { deleteSite(id: $id) }', { id: site.id }, { token });
    expect(gone.data?.deleteSite).toBe(true);
    expect(await onlyEntry(gone.requestId)).toMatchObject({ outcome: 'success', errorCode: null });

    const cases: [string, string][] = [
      ['deleteSite', site.id],
      ...['deleteSite', 'deleteForm', 'deleteWebhook', 'deleteSubmission'].map((action): [string, string] => [
        action,
        unknown,
      ]),
      ...['revokeApiToken', 'removeMember', 'revokeInvitation'].map((action): [string, string] => [action, unknown]),
    ];
    for (const [action, id] of cases) {
      const answer = await mutate(`mutation($id: ID!) { ${action}(id: $id) }`, { id }, { token });
      expect({ action, answer: answer.data?.[action] }).toEqual({ action, answer: false });
      expect(await onlyEntry(answer.requestId)).toMatchObject({
        action,
        objectId: id,
        outcome: 'failure',
        errorCode: 'NOT_FOUND',
      });
    }
  });

  it('makes one entry per root field when an operation has several', async () => {
    executedMutations += 2;
    const both = await call(
      'mutation { a: createSite(input: { name: "One" }) { id } b: createSite(input: { name: "Two" }) { id } }',
      {},
      { token },
    );
    const entries = await entriesOf(both.requestId);
    expect(entries.map((entry) => entry.objectId).sort()).toEqual([both.data?.a.id, both.data?.b.id].sort());
  });

  it('records a password change and a console sign-out by its session cookie', async () => {
    const changed = await mutate(
      'mutation($current: String!, $next: String!) { changePassword(currentPassword: $current, newPassword: $next) { token } }',
      { current: ADMIN_PASSWORD, next: NEW_PASSWORD },
      { token },
    );
    secrets.add(changed.data?.changePassword.token);
    expect(await onlyEntry(changed.requestId)).toMatchObject({
      actorKind: 'admin',
      action: 'changePassword',
      objectType: 'AdminUser',
      objectId: adminId,
      outcome: 'success',
    });

    const signedIn = await mutate(LOGIN, { email: ADMIN_EMAIL, password: NEW_PASSWORD });
    secrets.add(signedIn.data?.login.token);
    const cookie = /intake_session=([^;]+)/.exec(signedIn.setCookie ?? '')?.[1];
    expect(cookie).toBeDefined();
    secrets.add(cookie!);
    const out = await mutate('mutation { logout }', {}, { cookie: `intake_session=${cookie}` });
    expect(await onlyEntry(out.requestId)).toMatchObject({
      actorKind: 'admin',
      actorId: adminId,
      actorName: ADMIN_EMAIL,
      action: 'logout',
      objectType: 'AdminUser',
      objectId: adminId,
    });
  });

  it('does not record queries or operations refused before execution', async () => {
    await call('query { sites { id } }', {}, { token });
    await call('mutation { createSite(input: { name: "nobody" }) { id } }');
    const entries = await admin.services.db.em.fork().find(AuditEntrySchema, {});
    expect(entries).toHaveLength(executedMutations);
  });

  it('holds no secret and no submitted value in any entry', async () => {
    const entries = await admin.services.db.em.fork().find(AuditEntrySchema, {});
    expect(entries.length).toBeGreaterThan(20);
    const text = JSON.stringify(entries).toLowerCase();
    for (const secret of secrets) {
      expect(typeof secret).toBe('string');
      expect({ secret, found: text.includes(secret.toLowerCase()) }).toEqual({ secret, found: false });
    }
  });
});
