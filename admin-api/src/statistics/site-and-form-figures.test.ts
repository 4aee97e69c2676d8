// The figures the console lists: forms and recent submissions per site, submissions and the newest
// one per form, each form's endpoint URL, and the limits a form lives within.
import { jest } from '@jest/globals';
import { DEFAULT_ALLOWED_MIME_TYPES } from '@intake/shared/mime-types';
import { testDriverName } from '@intake/shared/test';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(60_000);

const DAY_MS = 24 * 60 * 60 * 1000;

describe(`site and form figures on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;

  beforeAll(async () => {
    admin = await startTestAdmin({ PUBLIC_GATEWAY_URL: 'https://intake.example.com' });
    token = await admin.login();
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('counts live forms and the last 7 days of submissions per site, and submissions per form', async () => {
    const { site } = await makeSite(admin.services, { name: 'Counted' });
    const busy = await makeForm(admin.services, site, { name: 'Busy' });
    const quiet = await makeForm(admin.services, site, { name: 'Quiet' });
    await makeForm(admin.services, site, { name: 'Gone', deletedAt: new Date() });
    const newest = new Date(Date.now() - 60_000);
    await makeSubmission(admin.services, busy, { createdAt: new Date(Date.now() - 8 * DAY_MS) });
    await makeSubmission(admin.services, busy, { createdAt: new Date(Date.now() - 2 * DAY_MS) });
    await makeSubmission(admin.services, busy, { createdAt: newest });
    const { site: other } = await makeSite(admin.services, { name: 'Other' });
    await makeSubmission(admin.services, await makeForm(admin.services, other));

    const result = await admin.gql<any>(
      `query($id: ID!) {
        site(id: $id) { formCount submissionsLast7Days }
        forms(siteId: $id) { name code submissionCount lastSubmissionAt endpointUrl }
      }`,
      { id: site.id },
      token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.site).toEqual({ formCount: 2, submissionsLast7Days: 2 });
    const byName = Object.fromEntries(result.data.forms.map((form: any) => [form.name, form]));
    expect(byName.Busy.submissionCount).toBe(3);
    expect(byName.Busy.lastSubmissionAt).toBe(newest.toISOString());
    expect(byName.Quiet).toMatchObject({ submissionCount: 0, lastSubmissionAt: null });
    expect(byName.Busy.endpointUrl).toBe(`https://intake.example.com/api/v1/send/${busy.code}`);
    expect(quiet.code).not.toBe(busy.code);
  });

  it('lists the limits and the 12 file types with labels and extensions', async () => {
    const result = await admin.gql<any>(
      '{ limits { maxFileSize maxFiles fileTypes { mimeType label extensions } } }',
      {},
      token,
    );
    expect(result.errors).toBeUndefined();
    const { limits } = result.data;
    expect(limits.maxFileSize).toBe(admin.services.config.limits.maxFileSize);
    expect(limits.maxFiles).toBe(admin.services.config.limits.maxFiles);
    expect(limits.fileTypes.map((type: any) => type.mimeType)).toEqual([...DEFAULT_ALLOWED_MIME_TYPES]);
    expect(limits.fileTypes.find((type: any) => type.mimeType === 'image/jpeg')).toEqual({
      mimeType: 'image/jpeg',
      label: 'JPEG image',
      extensions: ['jpg', 'jpeg'],
    });
    expect(new Set(limits.fileTypes.map((type: any) => type.label)).size).toBe(12);
  });
});

describe('the endpoint URL with no public address set', () => {
  it('is GATEWAY_PORT beside the address the request came to', async () => {
    const admin = await startTestAdmin({ GATEWAY_PORT: '3456' });
    try {
      const token = await admin.login();
      const { site } = await makeSite(admin.services);
      const form = await makeForm(admin.services, site);
      const result = await admin.gql<any>('query($id: ID!) { form(id: $id) { endpointUrl } }', { id: form.id }, token);
      expect(result.data.form.endpointUrl).toBe(`http://127.0.0.1:3456/api/v1/send/${form.code}`);
    } finally {
      await admin.close();
    }
  });
});

describe('whether notification e-mail is configured', () => {
  const emailConfigured = async (env: Record<string, string>) => {
    const admin = await startTestAdmin(env);
    try {
      const response = await fetch(`${admin.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await admin.login()}` },
        body: JSON.stringify({ query: '{ limits { emailConfigured } }' }),
      });
      return { status: response.status, body: await response.text() };
    } finally {
      await admin.close();
    }
  };

  it('says no when SMTP_URL is unset, so the console can warn that nothing will be sent', async () => {
    const answer = await emailConfigured({});
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ data: { limits: { emailConfigured: false } } });
  });

  it('says yes when it is set, and never shows the URL or its password', async () => {
    const answer = await emailConfigured({ SMTP_URL: 'smtp://mailer:s3cret-pass@mail.acme.example:587' });
    expect(JSON.parse(answer.body)).toEqual({ data: { limits: { emailConfigured: true } } });
    expect(answer.body).not.toMatch(/s3cret|mail\.acme|mailer/);
  });
});
