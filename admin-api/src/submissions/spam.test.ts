// The admin API's side of spam protection: a form's settings (the CAPTCHA secret write-only), the
// inbox and the Spam view as two filtered connections, and "Not spam" queueing the deliveries once.
import { jest } from '@jest/globals';
import { DeliverySchema, SubmissionSchema, type Form, type Site } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(30_000);

const SECRET = '0x4AAAAAAAtest-secret-value';
const SETTINGS = `honeypotFields captchaProvider captchaSecretSet captchaResponseField captchaMinScore
  captchaUnavailableAsSpam duplicateWindowSeconds maxLinks blockedWords`;
const PAGE = `query($formId: ID!, $first: Int, $after: String, $spam: Boolean) {
  submissions(formId: $formId, first: $first, after: $after, spam: $spam) {
    totalCount edges { node { id spam spamReason } } pageInfo { hasNextPage endCursor }
  }
}`;

describe(`spam in the admin API on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  let site: Site;

  const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) =>
    admin.gql<T>(query, variables, token);
  const update = (form: Form, input: Record<string, unknown>) =>
    gql(`mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { ${SETTINGS} } }`, {
      id: form.id,
      input,
    });

  async function spamSubmission(form: Form, createdAt: Date, reason = 'honeypot'): Promise<string> {
    const { submission } = await makeSubmission(admin.services, form, { createdAt });
    await admin.services.db.em
      .fork()
      .nativeUpdate(SubmissionSchema, { id: submission.id }, { spam: true, spamReason: reason });
    return submission.id;
  }

  beforeAll(async () => {
    admin = await startTestAdmin({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    token = await admin.login();
    site = (await makeSite(admin.services)).site;
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('keeps the CAPTCHA secret write-only: set, kept across other changes, required for a new provider', async () => {
    const form = await makeForm(admin.services, site);
    const set = await update(form, { captchaProvider: 'RECAPTCHA_V3', captchaSecret: SECRET, captchaMinScore: 0.3 });
    expect(set.data?.updateForm).toMatchObject({
      captchaProvider: 'RECAPTCHA_V3',
      captchaSecretSet: true,
      captchaResponseField: 'g-recaptcha-response',
      captchaMinScore: 0.3,
    });
    expect(JSON.stringify(set)).not.toContain(SECRET);
    // Another setting alone keeps the provider and its secret.
    const kept = await update(form, { maxLinks: 3, captchaUnavailableAsSpam: true });
    expect(kept.data?.updateForm).toMatchObject({
      captchaSecretSet: true,
      maxLinks: 3,
      captchaUnavailableAsSpam: true,
    });
    // Another provider's secret would not work: a change needs a new one.
    expect(codes(await update(form, { captchaProvider: 'TURNSTILE' }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await update(form, { captchaSecret: null }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await update(form, { captchaSecret: 'has space' }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await update(form, { captchaUnavailableAsSpam: null }))).toEqual(['BAD_USER_INPUT']);
    const unchanged = await gql(`query($id: ID!) { form(id: $id) { ${SETTINGS} } }`, { id: form.id });
    expect(unchanged.data?.form).toMatchObject({ captchaProvider: 'RECAPTCHA_V3', captchaSecretSet: true });

    const lists = await update(form, {
      honeypotFields: [' website ', 'website', 'fax'],
      blockedWords: ['Casino', 'casino', ' free   money '],
      duplicateWindowSeconds: 600,
    });
    expect(lists.data?.updateForm).toMatchObject({
      honeypotFields: ['website', 'fax'],
      blockedWords: ['Casino', 'free money'],
      duplicateWindowSeconds: 600,
    });
    const off = await update(form, {
      captchaProvider: null,
      honeypotFields: [],
      blockedWords: null,
      duplicateWindowSeconds: null,
      maxLinks: null,
    });
    expect(off.data?.updateForm).toMatchObject({
      honeypotFields: [],
      captchaProvider: null,
      captchaSecretSet: false,
      captchaResponseField: null,
      duplicateWindowSeconds: null,
      maxLinks: null,
      blockedWords: [],
    });
  });

  it('reports in `limits` the very bounds and defaults updateForm holds a form to', async () => {
    const result = await gql(`{ limits { notifyEmailsMax honeypotFieldsMax duplicateWindowMaxSeconds maxLinksMax
      blockedWordsMax retentionDaysMax captchaMinScoreDefault captchaProviders { provider defaultResponseField } } }`);
    expect(result.errors).toBeUndefined();
    const limits = result.data!.limits;
    const form = await makeForm(admin.services, site);
    const names = (count: number) => Array.from({ length: count }, (_, index) => `name${index}`);
    const addresses = (count: number) => Array.from({ length: count }, (_, index) => `a${index}@example.com`);
    const bounds: [string, number, (max: number) => unknown][] = [
      ['notifyEmails', limits.notifyEmailsMax, addresses],
      ['honeypotFields', limits.honeypotFieldsMax, names],
      ['duplicateWindowSeconds', limits.duplicateWindowMaxSeconds, (max) => max],
      ['maxLinks', limits.maxLinksMax, (max) => max],
      ['blockedWords', limits.blockedWordsMax, names],
      ['retentionDays', limits.retentionDaysMax, (max) => max],
    ];
    for (const [field, max, valueOf] of bounds) {
      expect(max).toBeGreaterThan(1);
      const at = await gql(
        `mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { id } }`,
        { id: form.id, input: { [field]: valueOf(max) } },
      );
      expect([field, at.errors]).toEqual([field, undefined]);
      const over = await gql(
        `mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { id } }`,
        { id: form.id, input: { [field]: valueOf(max + 1) } },
      );
      expect([field, codes(over)]).toEqual([field, ['BAD_USER_INPUT']]);
    }
    expect(limits.captchaMinScoreDefault).toBe(0.5);
    for (const { provider, defaultResponseField } of limits.captchaProviders) {
      const set = await update(form, { captchaProvider: provider, captchaSecret: SECRET, captchaResponseField: null });
      expect(set.data?.updateForm.captchaResponseField).toBe(defaultResponseField);
    }
    expect(limits.captchaProviders.map((entry: { provider: string }) => entry.provider)).toEqual([
      'TURNSTILE',
      'HCAPTCHA',
      'RECAPTCHA_V2',
      'RECAPTCHA_V3',
    ]);
  });

  it('lists the inbox and the Spam view apart, each with its own totalCount and pages', async () => {
    const form = await makeForm(admin.services, site);
    const base = Date.now() - 60_000;
    const good = [];
    for (let index = 0; index < 2; index += 1) {
      good.push(
        (await makeSubmission(admin.services, form, { createdAt: new Date(base + index * 1000) })).submission.id,
      );
    }
    const spam = [];
    for (let index = 0; index < 3; index += 1) {
      spam.push(await spamSubmission(form, new Date(base + 10_000 + index * 1000), index === 0 ? 'links' : 'honeypot'));
    }
    const inbox = (await gql(PAGE, { formId: form.id })).data?.submissions;
    expect(inbox.totalCount).toBe(2);
    expect(inbox.edges.map((edge: any) => edge.node.id)).toEqual([...good].reverse());

    const first = (await gql(PAGE, { formId: form.id, spam: true, first: 2 })).data?.submissions;
    expect(first.totalCount).toBe(3);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await gql(PAGE, { formId: form.id, spam: true, first: 2, after: first.pageInfo.endCursor })).data
      ?.submissions;
    expect(second.totalCount).toBe(3);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const listed = [...first.edges, ...second.edges].map((edge: any) => edge.node);
    expect(listed.map((node: any) => node.id)).toEqual([...spam].reverse());
    expect(listed.at(-1)).toEqual({ id: spam[0], spam: true, spamReason: 'links' });
    // spam: false is the inbox, as the default is.
    expect((await gql(PAGE, { formId: form.id, spam: false })).data?.submissions.totalCount).toBe(2);
  });

  it('markNotSpam queues each enabled webhook and the e-mail once, even when called twice at once', async () => {
    const form = await makeForm(admin.services, site);
    await gql('mutation($id: ID!) { updateForm(id: $id, input: { notifyEmails: ["team@example.com"] }) { id } }', {
      id: form.id,
    });
    for (const path of ['/a', '/b']) {
      await gql('mutation($f: ID!, $u: String!) { createWebhook(input: { formId: $f, url: $u }) { secret } }', {
        f: form.id,
        u: `http://127.0.0.1:9${path}`,
      });
    }
    const id = await spamSubmission(form, new Date());
    const mark = () => gql('mutation($id: ID!) { markNotSpam(id: $id) { id spam spamReason } }', { id });
    const answers = await Promise.all([mark(), mark()]);
    for (const answer of answers) {
      expect(answer.data?.markNotSpam).toEqual({ id, spam: false, spamReason: null });
    }
    const em = admin.services.db.em.fork();
    const deliveries = await em.find(DeliverySchema, { submission: id });
    expect(deliveries.map((delivery) => delivery.channel).sort()).toEqual(['email', 'webhook', 'webhook']);

    // A submission that is not spam is answered as it is; nothing is queued.
    const { submission } = await makeSubmission(admin.services, form);
    expect((await gql('mutation($id: ID!) { markNotSpam(id: $id) { spam } }', { id: submission.id })).data).toEqual({
      markNotSpam: { spam: false },
    });
    expect(await em.count(DeliverySchema, { submission: submission.id })).toBe(0);
    expect(codes(await gql('mutation { markNotSpam(id: "nope") { id } }'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await admin.gql('mutation($id: ID!) { markNotSpam(id: $id) { id } }', { id }))).toEqual([
      'UNAUTHENTICATED',
    ]);
  });
});
