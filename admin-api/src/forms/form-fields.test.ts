// A form's declared fields through the admin API (docs/form-fields.md): set as a typed list, read back
// in order, stored as the JSON Schema the gateway enforces, and refused field by field when the list
// does not make sense.
import { FormSchema, type Site } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { makeForm, makeSite } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

const SHAPE = 'fields { name type required maxLength choices } unknownFields';
const UPDATE = `mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { ${SHAPE} } }`;

const FIELDS = [
  { name: 'name', type: 'TEXT', required: true, maxLength: 100 },
  { name: 'email', type: 'EMAIL', required: true },
  { name: 'age', type: 'NUMBER' },
  { name: 'subscribe', type: 'BOOLEAN' },
  { name: 'topic', type: 'CHOICE', choices: ['sales', ' support '] },
  { name: 'tags', type: 'LIST', maxLength: 20 },
];

describe(`declared fields in the admin API on ${testDriverName()}`, () => {
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

  it('has no declared fields until some are set: every key is accepted', async () => {
    const form = await makeForm(admin.services, site);
    const result = await admin.gql(`query($id: ID!) { form(id: $id) { ${SHAPE} } }`, { id: form.id }, token);
    expect(result.data?.form).toEqual({ fields: [], unknownFields: 'REFUSE' });
  });

  it('sets the fields as a typed list, keeps their order, and stores them as JSON Schema', async () => {
    const form = await makeForm(admin.services, site);
    const result = await update(form.id, { fields: FIELDS, unknownFields: 'DROP' });
    expect(result.errors).toBeUndefined();
    expect(result.data?.updateForm).toEqual({
      fields: [
        { name: 'name', type: 'TEXT', required: true, maxLength: 100, choices: null },
        { name: 'email', type: 'EMAIL', required: true, maxLength: null, choices: null },
        { name: 'age', type: 'NUMBER', required: false, maxLength: null, choices: null },
        { name: 'subscribe', type: 'BOOLEAN', required: false, maxLength: null, choices: null },
        { name: 'topic', type: 'CHOICE', required: false, maxLength: null, choices: ['sales', 'support'] },
        { name: 'tags', type: 'LIST', required: false, maxLength: 20, choices: null },
      ],
      unknownFields: 'DROP',
    });
    // Read back from the database, in the order declared (not the sorted keys jsonb would give).
    const stored = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
    expect(Object.keys(stored.fieldsSchema!.properties)).toEqual([
      'name',
      'email',
      'age',
      'subscribe',
      'topic',
      'tags',
    ]);
    expect(stored.fieldsSchema).toMatchObject({
      type: 'object',
      required: ['name', 'email'],
      additionalProperties: false,
      properties: { email: { type: 'string', format: 'email' }, topic: { enum: ['sales', 'support'] } },
    });
    expect(stored.unknownFields).toBe('drop');
  });

  it('leaves the fields alone when another setting changes, and clears them with null or []', async () => {
    const form = await makeForm(admin.services, site);
    await update(form.id, { fields: FIELDS });
    const renamed = await update(form.id, { name: 'Renamed' });
    expect((renamed.data?.updateForm as { fields: unknown[] }).fields).toHaveLength(FIELDS.length);
    expect((await update(form.id, { fields: [] })).data?.updateForm).toMatchObject({ fields: [] });
    await update(form.id, { fields: FIELDS });
    expect((await update(form.id, { fields: null })).data?.updateForm).toMatchObject({ fields: [] });
    const stored = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
    expect(stored.fieldsSchema).toBeNull();
  });

  it.each([
    ['a name declared twice', [FIELDS[0], { ...FIELDS[1], name: 'name' }], 'input.fields.1.name'],
    ['an empty name', [{ name: ' ', type: 'TEXT' }], 'input.fields.0.name'],
    ['a name with markup', [{ name: 'a<b', type: 'TEXT' }], 'input.fields.0.name'],
    ['a name no submission may use', [{ name: '__proto__', type: 'TEXT' }], 'input.fields.0.name'],
    ['choices on a text field', [{ name: 'a', type: 'TEXT', choices: ['x'] }], 'input.fields.0.choices'],
    ['a choice field without choices', [{ name: 'a', type: 'CHOICE' }], 'input.fields.0.choices'],
    ['a choice repeated', [{ name: 'a', type: 'CHOICE', choices: ['x', 'x '] }], 'input.fields.0.choices'],
    ['an empty choice', [{ name: 'a', type: 'CHOICE', choices: [''] }], 'input.fields.0.choices'],
    ['a maximum length on a number', [{ name: 'a', type: 'NUMBER', maxLength: 3 }], 'input.fields.0.maxLength'],
    ['a maximum length of zero', [{ name: 'a', type: 'TEXT', maxLength: 0 }], 'input.fields.0.maxLength'],
    ['too many fields', Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, type: 'TEXT' })), 'input.fields'],
  ])('refuses %s as BAD_USER_INPUT on its field, and changes nothing', async (_label, fields, field) => {
    const form = await makeForm(admin.services, site);
    const refused = await update(form.id, { fields, name: 'Changed' });
    expect(codes(refused)).toEqual(['BAD_USER_INPUT']);
    expect(refused.errors![0]!.extensions?.field).toBe(field);
    const stored = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
    expect({ name: stored.name, fieldsSchema: stored.fieldsSchema }).toEqual({ name: 'Contact', fieldsSchema: null });
  });

  it('refuses an unknown field type and an unknown policy as GraphQL validation errors', async () => {
    const form = await makeForm(admin.services, site);
    expect(codes(await update(form.id, { fields: [{ name: 'a', type: 'FILE' }] }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await update(form.id, { unknownFields: 'IGNORE' }))).toEqual(['BAD_USER_INPUT']);
  });
});
