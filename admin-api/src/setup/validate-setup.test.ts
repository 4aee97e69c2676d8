// The setup dry run over a listening admin API: each change is refused as its mutation would refuse
// it (the same error, the same permission), and nothing is written, not even an audit entry.
import { jest } from '@jest/globals';
import {
  AdminUserSchema,
  AuditEntrySchema,
  FormSchema,
  MemberSiteGrantSchema,
  SiteSchema,
  WebhookSchema,
} from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { testDriverName } from '@intake/shared/test';
import { makeForm, makeSite } from '../test/factories.js';
import { startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(60_000);

const VALIDATE = `query($changes: [SetupChangeInput!]!) {
  validateSetup(changes: $changes) { change code field message }
}`;
const LOOPBACK = 'http://127.0.0.1:9/hook';

interface Refusal {
  change: number;
  code: string;
  field: string | null;
  message: string;
}

describe(`validateSetup on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let owner: string;

  const validate = async (changes: unknown[], token = owner): Promise<Refusal[]> => {
    const result = await admin.gql<{ validateSetup: Refusal[] }>(VALIDATE, { changes }, token);
    expect(result.errors).toBeUndefined();
    return result.data!.validateSetup;
  };

  /** Rows of every table a change could write, the audit log among them. */
  async function rowCounts() {
    const em = admin.services.db.em.fork();
    return {
      sites: await em.count(SiteSchema, {}),
      forms: await em.count(FormSchema, {}),
      webhooks: await em.count(WebhookSchema, {}),
      audit: await em.count(AuditEntrySchema, {}),
    };
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    owner = await admin.login();
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
  }, 30_000);

  it('refuses a loopback webhook of a form made in the same setup, and writes nothing', async () => {
    const before = await rowCounts();
    const refusals = await validate([
      { createSite: { name: 'Dry shop', domain: 'shop.example' } },
      { createForm: { siteChange: 0, name: 'Contact', settings: { fields: [{ name: 'email', type: 'EMAIL' }] } } },
      { createWebhook: { formChange: 1, url: LOOPBACK } },
    ]);
    expect(refusals).toEqual([
      {
        change: 2,
        code: 'BAD_USER_INPUT',
        field: 'input.url',
        message: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE=true') as unknown as string,
      },
    ]);
    expect(await rowCounts()).toEqual(before);
  });

  it("answers the mutation's own error, word for word", async () => {
    const { site } = await makeSite(admin.services, { name: 'Existing' });
    const form = await makeForm(admin.services, site);
    const [refusal] = await validate([{ createWebhook: { formId: form.id, url: LOOPBACK } }]);
    const real = await admin.gql(
      'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }',
      { input: { formId: form.id, url: LOOPBACK } },
      owner,
    );
    expect(refusal).toMatchObject({
      change: 0,
      code: real.errors?.[0]?.extensions?.code,
      message: real.errors?.[0]?.message,
    });
  });

  it("runs each mutation's checks to the end: declared fields, a cap's field, an unknown id", async () => {
    const { site } = await makeSite(admin.services, { name: 'Checked' });
    const form = await makeForm(admin.services, site);
    const before = await rowCounts();
    const refusals = await validate([
      { updateForm: { id: form.id, input: { fields: [{ name: 'topic', type: 'TEXT', choices: ['a'] }] } } },
      { updateForm: { id: form.id, input: { maxSubmissionsPerAddress: 1, capAddressField: 'email' } } },
      { updateForm: { id: form.id, input: { name: 'Renamed', enabled: false } } },
      { updateSite: { id: '00000000-0000-4000-8000-000000000000', input: { domain: 'x.example' } } },
      { createSite: { name: 'Refused', domain: 'not a domain' } },
      // The refusal of its site stands for it.
      { createForm: { siteChange: 4, name: 'Of a refused site' } },
      { createForm: { siteChange: 3, name: 'Of no new site' } },
      { createWebhook: { formChange: 0, url: 'https://hooks.example.com/x' } },
    ]);
    expect(refusals.map(({ change, code, field }) => ({ change, code, field }))).toEqual([
      { change: 0, code: 'BAD_USER_INPUT', field: 'input.fields.0.choices' },
      { change: 1, code: 'BAD_USER_INPUT', field: 'input.capAddressField' },
      { change: 3, code: 'NOT_FOUND', field: null },
      { change: 4, code: 'BAD_USER_INPUT', field: 'input.domain' },
      { change: 6, code: 'BAD_USER_INPUT', field: 'siteChange' },
      { change: 7, code: 'BAD_USER_INPUT', field: 'formChange' },
    ]);
    expect(await rowCounts()).toEqual(before);
    const stored = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
    expect({ name: stored.name, enabled: stored.enabled }).toEqual({ name: form.name, enabled: true });
  });

  it('needs what each mutation needs', async () => {
    const { site } = await makeSite(admin.services, { name: 'Granted' });
    const { site: hidden } = await makeSite(admin.services, { name: 'Hidden' });
    const form = await makeForm(admin.services, site);
    const em = admin.services.db.em.fork();
    const password = 'a long enough password 42';
    const member = em.create(AdminUserSchema, {
      email: 'reader@example.com',
      name: 'Reader',
      role: 'member',
      passwordHash: await hashPassword(password),
    });
    em.create(MemberSiteGrantSchema, { member, site: em.getReference(SiteSchema, site.id), level: 'read' });
    await em.flush();
    const reader = await admin.login('reader@example.com', password);
    const refusals = await validate(
      [
        { createSite: { name: 'Mine' } },
        { updateForm: { id: form.id, input: { name: 'Mine now' } } },
        { updateSite: { id: hidden.id, input: { name: 'Mine too' } } },
      ],
      reader,
    );
    expect(refusals.map(({ change, code }) => ({ change, code }))).toEqual([
      { change: 0, code: 'FORBIDDEN' },
      { change: 1, code: 'FORBIDDEN' },
      { change: 2, code: 'NOT_FOUND' },
    ]);
    const unauthenticated = await admin.gql(VALIDATE, { changes: [] });
    expect(unauthenticated.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
