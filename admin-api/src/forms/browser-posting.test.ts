// A form's browser posting settings through the admin API (docs/static-sites.md): off by default,
// set and read back in their stored spelling, refused one by one when they cannot be meant, the
// challenge turned off only when confirmed, and the HTML form the API view offers, which holds no
// key and no token.
import { FormSchema, type Site } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { makeForm, makeSite } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

const SETTINGS = `browserPosting browserOrigins browserThankYouUrls browserChallenge browserChallengeDifficulty
  browserTexts { language title message received reference files receipt receiptHelp errorTitle back }
  browserMaxBodySize browserMaxFileSize browserMaxFiles browserReservedFields browserFormHtml`;
const UPDATE = `mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { ${SETTINGS} } }`;

describe(`browser posting settings in the admin API on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  let site: Site;
  let siteToken: string;

  const update = (id: string, input: Record<string, unknown>) => admin.gql(UPDATE, { id, input }, token);

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
    ({ site, token: siteToken } = await makeSite(admin.services));
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('is off on a new form, with the defaults filled in and no HTML form', async () => {
    const form = await makeForm(admin.services, site);
    const result = await admin.gql(`query($id: ID!) { form(id: $id) { ${SETTINGS} } }`, { id: form.id }, token);
    expect(result.data?.form).toEqual({
      browserPosting: false,
      browserOrigins: [],
      browserThankYouUrls: [],
      browserChallenge: 'REQUIRED',
      browserChallengeDifficulty: 1000,
      browserTexts: {
        language: 'en',
        title: 'Thank you',
        message: 'Your submission was received.',
        received: 'Received',
        reference: 'Reference',
        files: 'Files',
        receipt: 'Download your receipt',
        receiptHelp: 'Keep the receipt: it is signed proof of what was received and when.',
        errorTitle: 'Your submission was not sent',
        back: 'Back to the form',
      },
      browserMaxBodySize: 10 * 1024 * 1024,
      browserMaxFileSize: 5 * 1024 * 1024,
      browserMaxFiles: 3,
      browserReservedFields: true,
      browserFormHtml: null,
    });
  });

  it('stores exact origins and thank-you addresses in their parsed spelling, and the texts set', async () => {
    const form = await makeForm(admin.services, site);
    const result = await update(form.id, {
      browserPosting: true,
      browserOrigins: ['https://WWW.Example.org:443/', 'http://localhost:1313', 'https://www.example.org'],
      browserThankYouUrls: ['https://www.example.org/danke?x=1', 'http://127.0.0.1:8080/ok'],
      browserChallenge: 'RECORD_ONLY',
      browserChallengeDifficulty: 50,
      browserTexts: { language: 'de-CH', title: ' Danke ', message: null },
      browserMaxBodySize: 2_000_000,
      browserMaxFileSize: 1_000_000,
      browserMaxFiles: 1,
      browserReservedFields: false,
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.updateForm).toMatchObject({
      browserPosting: true,
      browserOrigins: ['https://www.example.org', 'http://localhost:1313'],
      browserThankYouUrls: ['https://www.example.org/danke?x=1', 'http://127.0.0.1:8080/ok'],
      browserChallenge: 'RECORD_ONLY',
      browserChallengeDifficulty: 50,
      browserTexts: { language: 'de-CH', title: 'Danke', message: 'Your submission was received.' },
      browserMaxBodySize: 2_000_000,
      browserMaxFileSize: 1_000_000,
      browserMaxFiles: 1,
      browserReservedFields: false,
    });
    const stored = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
    expect(stored.browserTexts).toEqual({ language: 'de-CH', title: 'Danke' });
    expect(stored.browserChallenge).toBe('record_only');
  });

  it.each([
    ['an origin with a path', { browserOrigins: ['https://example.org/contact'] }, 'input.browserOrigins'],
    ['a plain http origin off loopback', { browserOrigins: ['http://example.org'] }, 'input.browserOrigins'],
    ['a pattern', { browserOrigins: ['https://*.example.org'] }, 'input.browserOrigins'],
    ['an origin with credentials', { browserOrigins: ['https://a:b@example.org'] }, 'input.browserOrigins'],
    ['a javascript: thank-you address', { browserThankYouUrls: ['javascript:alert(1)'] }, 'input.browserThankYouUrls'],
    ['a relative thank-you address', { browserThankYouUrls: ['/thanks'] }, 'input.browserThankYouUrls'],
    [
      'a plain http thank-you address off loopback',
      { browserThankYouUrls: ['http://example.org/t'] },
      'input.browserThankYouUrls',
    ],
    ['a difficulty of 0', { browserChallengeDifficulty: 0 }, 'input.browserChallengeDifficulty'],
    ['a language that is no tag', { browserTexts: { language: 'english please' } }, 'input.browserTexts.language'],
    ['a file size over MAX_FILE_SIZE', { browserMaxFileSize: 10 * 1024 * 1024 + 1 }, 'input.browserMaxFileSize'],
    ['more files than MAX_FILES', { browserMaxFiles: 11 }, 'input.browserMaxFiles'],
  ])('refuses %s as BAD_USER_INPUT on its field, and changes nothing', async (_label, input, field) => {
    const form = await makeForm(admin.services, site);
    const refused = await update(form.id, { ...input, browserPosting: true });
    expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
    expect(refused.errors![0]!.extensions?.field).toBe(field);
    const stored = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
    expect(stored.browserPosting).toBe(false);
  });

  it('turns the challenge off only when confirmed, and the audit entry says so', async () => {
    const form = await makeForm(admin.services, site);
    const refused = await update(form.id, { browserChallenge: 'OFF' });
    expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
    expect(refused.errors![0]!.extensions?.field).toBe('input.browserChallenge');
    const off = await update(form.id, { browserChallenge: 'OFF', confirmChallengeOff: true });
    expect(off.errors).toBeUndefined();
    expect(off.data?.updateForm).toMatchObject({ browserChallenge: 'OFF' });
    const audit = await admin.gql<{ auditLog: { edges: { node: { action: string; details: unknown } }[] } }>(
      `{ auditLog(first: 5) { edges { node { action details } } } }`,
      {},
      token,
    );
    const entry = audit.data?.auditLog.edges.find((edge) => edge.node.action === 'updateForm');
    expect(JSON.stringify(entry?.node.details)).toContain('"input.browserChallenge":"OFF"');
    expect(JSON.stringify(entry?.node.details)).toContain('"input.confirmChallengeOff":true');
  });

  it('offers an HTML form that posts to the endpoint, with the widget and the script, and no key or token', async () => {
    const form = await makeForm(admin.services, site);
    await update(form.id, {
      browserPosting: true,
      browserOrigins: ['https://www.example.org'],
      fields: [
        { name: 'email', type: 'EMAIL', required: true },
        { name: 'topic', type: 'CHOICE', choices: ['sales', 'a "quoted" <topic>'] },
        { name: 'subscribe', type: 'BOOLEAN' },
      ],
    });
    const view = await admin.gql<{
      siteApiView: { forms: { code: string; endpointUrl: string; browserFormHtml: string | null }[] };
    }>(
      `query($id: ID!) { siteApiView(siteId: $id) { forms { code endpointUrl browserFormHtml } } }`,
      { id: site.id },
      token,
    );
    const entry = view.data!.siteApiView.forms.find((item) => item.code === form.code)!;
    const html = entry.browserFormHtml!;
    const gateway = new URL(entry.endpointUrl).origin;
    expect(html).toContain(
      `<form action="${gateway}/api/v1/send/${form.code}" method="post" enctype="multipart/form-data"`,
    );
    expect(html).toContain('<input id="intake-' + form.code + '-email" name="email" required type="email"');
    expect(html).toContain('<option>a &quot;quoted&quot; &lt;topic&gt;</option>');
    expect(html).toContain('name="_gotcha"');
    expect(html).toContain(`<altcha-widget challenge="${gateway}/api/v1/challenge/${form.code}"`);
    expect(html).toContain(`<script src="${gateway}/browser/altcha.js" defer></script>`);
    expect(html).toContain(`<script src="${gateway}/browser/intake-form.js" defer></script>`);
    expect(html).not.toContain(siteToken);
    expect(html).not.toContain(admin.services.config.apiKey);
  });
});
