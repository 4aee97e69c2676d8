// A form's cap and schedule through the admin API (docs/submissions.md#caps-and-a-schedule): set on
// create and update, read back with whether the form is closed now and why, refused with the place
// when a bound or the combination is wrong, and audited like every change to a form.
import { AuditEntrySchema, FormSchema, type Site } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { makeForm, makeSite } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

const SHAPE =
  'id maxSubmissions maxSubmissionsPerAddress capAddressField opensAt closesAt cappedSubmissions closedReason';
const UPDATE = `mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { ${SHAPE} } }`;
const CREATE = `mutation($input: CreateFormInput!) { createForm(input: $input) { ${SHAPE} } }`;
const EMAIL_FIELDS = [
  { name: 'email', type: 'EMAIL', required: true },
  { name: 'message', type: 'TEXT' },
];

describe(`caps and a schedule in the admin API on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  let site: Site;

  const update = (id: string, input: Record<string, unknown>) => admin.gql(UPDATE, { id, input }, token);

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
    site = (await makeSite(admin.services)).site;
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('has none until set, and the form is open', async () => {
    const form = await makeForm(admin.services, site);
    const result = await admin.gql(`query($id: ID!) { form(id: $id) { ${SHAPE} } }`, { id: form.id }, token);
    expect(result.data?.form).toMatchObject({
      maxSubmissions: null,
      maxSubmissionsPerAddress: null,
      capAddressField: null,
      opensAt: null,
      closesAt: null,
      cappedSubmissions: null,
      closedReason: null,
    });
  });

  it('creates a form with a cap and a schedule, and says it is not open yet', async () => {
    const result = await admin.gql(
      CREATE,
      {
        input: {
          siteId: site.id,
          name: 'Sign-up',
          maxSubmissions: 100,
          opensAt: '2999-01-01T09:00:00+01:00',
          closesAt: '2999-02-01T00:00:00Z',
        },
      },
      token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.createForm).toMatchObject({
      maxSubmissions: 100,
      opensAt: '2999-01-01T08:00:00.000Z',
      closesAt: '2999-02-01T00:00:00.000Z',
      cappedSubmissions: 0,
      closedReason: 'NOT_YET_OPEN',
    });
  });

  it('sets a per-address cap on a declared EMAIL field, with the fields in the same change', async () => {
    const form = await makeForm(admin.services, site);
    const result = await update(form.id, {
      fields: EMAIL_FIELDS,
      maxSubmissionsPerAddress: 1,
      capAddressField: 'email',
      closesAt: '2000-01-01T00:00:00Z',
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.updateForm).toMatchObject({
      maxSubmissionsPerAddress: 1,
      capAddressField: 'email',
      closedReason: 'CLOSED',
    });
    // null removes a setting; absent ones stay.
    const reopened = await update(form.id, { closesAt: null });
    expect(reopened.data?.updateForm).toMatchObject({ closesAt: null, capAddressField: 'email', closedReason: null });
    // Removing the counted field from the fields is refused while the cap counts it.
    const refused = await update(form.id, { fields: [{ name: 'message', type: 'TEXT' }] });
    expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
    expect(refused.errors![0]!.extensions?.field).toBe('input.fields');
  });

  it('shows a form at its cap as FULL, from the count the gateway keeps', async () => {
    const form = await makeForm(admin.services, site);
    await update(form.id, { maxSubmissions: 2 });
    await admin.services.db.em
      .fork()
      .execute(`insert into "form_submission_counts" ("form_id", "scope", "count") values (?, 'form', 2)`, [form.id]);
    const result = await admin.gql(`query($id: ID!) { form(id: $id) { ${SHAPE} } }`, { id: form.id }, token);
    expect(result.data?.form).toMatchObject({ cappedSubmissions: 2, closedReason: 'FULL' });
    // Raising the cap reopens it.
    expect((await update(form.id, { maxSubmissions: 3 })).data?.updateForm).toMatchObject({ closedReason: null });
  });

  it.each([
    ['a cap of 0', { maxSubmissions: 0 }, 'input.maxSubmissions'],
    ['a cap over a billion', { maxSubmissions: 1_000_000_001 }, 'input.maxSubmissions'],
    ['a per-address cap of 0', { maxSubmissionsPerAddress: 0 }, 'input.maxSubmissionsPerAddress'],
    ['a time without a zone', { opensAt: '2026-12-01T09:00:00' }, 'input.opensAt'],
    ['a date that is no time', { closesAt: 'next monday' }, 'input.closesAt'],
    [
      'a closing before the opening',
      { opensAt: '2026-12-02T00:00:00Z', closesAt: '2026-12-01T00:00:00Z' },
      'input.closesAt',
    ],
    [
      'a closing at the opening',
      { opensAt: '2026-12-01T00:00:00Z', closesAt: '2026-12-01T00:00:00Z' },
      'input.closesAt',
    ],
    ['a per-address cap without its field', { maxSubmissionsPerAddress: 3 }, 'input.capAddressField'],
    ['an undeclared address field', { maxSubmissionsPerAddress: 3, capAddressField: 'mail' }, 'input.capAddressField'],
    [
      'an address field that is not EMAIL',
      { fields: EMAIL_FIELDS, maxSubmissionsPerAddress: 3, capAddressField: 'message' },
      'input.capAddressField',
    ],
  ])('refuses %s as BAD_USER_INPUT on its field, and changes nothing', async (_label, input, field) => {
    const form = await makeForm(admin.services, site);
    const refused = await update(form.id, input);
    expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
    expect(refused.errors![0]!.extensions?.field).toBe(field);
    const stored = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
    expect(stored).toMatchObject({ maxSubmissions: null, opensAt: null, closesAt: null, fieldsSchema: null });
  });

  it('refuses an opening after the closing already stored', async () => {
    const form = await makeForm(admin.services, site);
    await update(form.id, { closesAt: '2030-01-01T00:00:00Z' });
    const refused = await update(form.id, { opensAt: '2031-01-01T00:00:00Z' });
    expect(refused.errors![0]!.extensions?.field).toBe('input.opensAt');
  });

  it('audits the change like any change to the form', async () => {
    const form = await makeForm(admin.services, site);
    expect((await update(form.id, { maxSubmissions: 5 })).errors).toBeUndefined();
    const entries = await admin.services.db.em
      .fork()
      .find(AuditEntrySchema, { action: 'updateForm', objectId: form.id });
    expect(entries).toHaveLength(1);
  });
});
