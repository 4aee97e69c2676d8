// A form's declared shape through a listening gateway (docs/form-fields.md): every field type taken
// and refused, undeclared fields refused or dropped, every failing field named, and nothing stored on
// a refusal, in JSON, urlencoded and multipart bodies.
import { FormSchema, SubmissionSchema } from '@intake/shared/entities';
import { toJsonSchema, type DeclaredField, type UnknownFieldPolicy } from '@intake/shared/form-shape';
import { makeForm, makeSite } from '@intake/shared/test';
import { png } from '@intake/test-files';
import { footprint, send, startTestGateway } from '../test/harness.js';

type Harness = Awaited<ReturnType<typeof startTestGateway>>;

let harness: Harness;

beforeAll(async () => {
  harness = await startTestGateway();
});

afterAll(async () => {
  await harness.close();
});

function field(name: string, type: DeclaredField['type'], more: Partial<DeclaredField> = {}): DeclaredField {
  return { name, type, required: false, maxLength: null, choices: null, ...more };
}

const FIELDS: DeclaredField[] = [
  field('name', 'text', { required: true, maxLength: 10 }),
  field('email', 'email', { required: true }),
  field('age', 'number'),
  field('subscribe', 'boolean'),
  field('topic', 'choice', { choices: ['sales', 'support'] }),
  field('tags', 'list', { maxLength: 5 }),
];

const GOOD = { name: 'Ada', email: 'ada@example.com', age: 36, subscribe: true, topic: 'sales', tags: ['a', 'b'] };

async function shapedForm(
  unknownFields: UnknownFieldPolicy = 'refuse',
  overrides: Parameters<typeof makeForm>[2] = {},
) {
  const { site, token } = await makeSite(harness.services);
  const form = await makeForm(harness.services, site, {
    fieldsSchema: toJsonSchema(FIELDS),
    unknownFields,
    ...overrides,
  });
  return { token, form };
}

function post(token: string, code: string, json: unknown) {
  return send(harness.gateway.url, code, { apiKey: harness.services.config.apiKey, token, json });
}

async function storedData(id: string): Promise<Record<string, unknown>> {
  const row = await harness.services.db.em.fork().findOneOrFail(SubmissionSchema, { id });
  return row.data;
}

async function expectRefusal(response: Response, errors: { path: string; reason: string }[]) {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  const problem = (await response.json()) as Record<string, unknown>;
  expect(problem).toMatchObject({ code: 'fields_invalid', status: 400 });
  expect(problem.errors).toEqual(errors);
  return problem;
}

describe('a form with declared fields', () => {
  it('takes a submission of every field type and stores it as sent', async () => {
    const { token, form } = await shapedForm();
    const response = await post(token, form.code, GOOD);
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(await storedData(id)).toEqual(GOOD);
  });

  it('takes a submission that leaves out the fields that are not required', async () => {
    const { token, form } = await shapedForm();
    const response = await post(token, form.code, { name: 'Ada', email: 'ada@example.com' });
    expect(response.status).toBe(201);
  });

  it.each([
    ['a missing required text', { name: undefined }, [{ path: 'name', reason: 'is required' }]],
    ['an empty required text', { name: '' }, [{ path: 'name', reason: 'must not be empty' }]],
    ['a text over its length', { name: 'x'.repeat(11) }, [{ path: 'name', reason: 'is longer than 10 characters' }]],
    ['a text that is a number', { name: 7 }, [{ path: 'name', reason: 'must be text' }]],
    [
      'an e-mail that is not one',
      { email: 'not an address' },
      [{ path: 'email', reason: 'must be an e-mail address' }],
    ],
    ['a number sent as text in JSON', { age: '36' }, [{ path: 'age', reason: 'must be a number' }]],
    ['a boolean that is text', { subscribe: 'yes' }, [{ path: 'subscribe', reason: 'must be true or false' }]],
    ['a choice off the list', { topic: 'billing' }, [{ path: 'topic', reason: 'is not one of the choices' }]],
    ['a list that is one text', { tags: 'a' }, [{ path: 'tags', reason: 'must be a list of text' }]],
    [
      'a list item over its length',
      { tags: ['ok', 'toolong'] },
      [{ path: 'tags[1]', reason: 'is longer than 5 characters' }],
    ],
    ['a list item that is a number', { tags: [1] }, [{ path: 'tags[0]', reason: 'must be text' }]],
  ])('refuses %s, naming the field', async (_label, change, errors) => {
    const { token, form } = await shapedForm();
    const before = await footprint(harness.services);
    const body: Record<string, unknown> = { ...GOOD, ...change };
    for (const key of Object.keys(change)) {
      if ((change as Record<string, unknown>)[key] === undefined) {
        delete body[key];
      }
    }
    const problem = await expectRefusal(await post(token, form.code, body), errors);
    // The reason names the rule, never the value sent.
    expect(JSON.stringify(problem)).not.toContain('not an address');
    expect(await footprint(harness.services)).toEqual(before);
  });

  it('names every failing field at once', async () => {
    const { token, form } = await shapedForm();
    const response = await post(token, form.code, { name: '', email: 'x', age: 'old', topic: 'other', extra: 1 });
    const problem = await expectRefusal(response, [
      { path: 'name', reason: 'must not be empty' },
      { path: 'email', reason: 'must be an e-mail address' },
      { path: 'age', reason: 'must be a number' },
      { path: 'topic', reason: 'is not one of the choices' },
      { path: 'extra', reason: 'is not a field of this form' },
    ]);
    expect(problem.detail).toBe("5 fields do not match the form's declared fields.");
  });

  it('refuses an undeclared field when the form refuses them, and stores nothing', async () => {
    const { token, form } = await shapedForm('refuse');
    const before = await footprint(harness.services);
    await expectRefusal(await post(token, form.code, { ...GOOD, note: 'hi' }), [
      { path: 'note', reason: 'is not a field of this form' },
    ]);
    expect(await footprint(harness.services)).toEqual(before);
  });

  it('drops undeclared fields when the form drops them, and stores the rest', async () => {
    const { token, form } = await shapedForm('drop');
    const response = await post(token, form.code, { ...GOOD, note: 'hi', nested: { a: 1 } });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(await storedData(id)).toEqual(GOOD);
  });

  it('never refuses nor drops the honeypot and the CAPTCHA answer as undeclared', async () => {
    const { token, form } = await shapedForm('refuse', { honeypotFields: ['website'] });
    const response = await post(token, form.code, { ...GOOD, website: '' });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(await storedData(id)).toEqual({ ...GOOD, website: '' });
  });

  it('reads the text of an urlencoded body as the declared types', async () => {
    const { token, form } = await shapedForm();
    const body = new URLSearchParams([
      ['name', 'Ada'],
      ['email', 'ada@example.com'],
      ['age', '36'],
      ['subscribe', 'on'],
      ['topic', 'support'],
      ['tags', 'one'],
    ]);
    const response = await send(harness.gateway.url, form.code, {
      apiKey: harness.services.config.apiKey,
      token,
      body,
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(await storedData(id)).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      age: 36,
      subscribe: true,
      topic: 'support',
      tags: ['one'],
    });
  });

  it('takes an empty number input of an HTML form as no answer', async () => {
    const { token, form } = await shapedForm();
    const body = new URLSearchParams({ name: 'Ada', email: 'ada@example.com', age: '' });
    const response = await send(harness.gateway.url, form.code, {
      apiKey: harness.services.config.apiKey,
      token,
      body,
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(await storedData(id)).toEqual({ name: 'Ada', email: 'ada@example.com' });
  });

  it('refuses a multipart submission that breaks the shape before its file is stored', async () => {
    const { token, form } = await shapedForm();
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('email', 'ada@example.com');
    body.append('age', 'thirty');
    body.append('photo', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'photo.png');
    const before = await footprint(harness.services);
    await expectRefusal(
      await send(harness.gateway.url, form.code, { apiKey: harness.services.config.apiKey, token, body }),
      [{ path: 'age', reason: 'must be a number' }],
    );
    // No row, no stored object, and the temporary upload is gone too.
    expect(await footprint(harness.services)).toEqual(before);
  });

  it('takes a multipart submission with a file when the fields match', async () => {
    const { token, form } = await shapedForm();
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('email', 'ada@example.com');
    body.append('tags', 'x');
    body.append('tags', 'y');
    body.append('photo', new Blob([new Uint8Array(png())], { type: 'image/png' }), 'photo.png');
    const response = await send(harness.gateway.url, form.code, {
      apiKey: harness.services.config.apiKey,
      token,
      body,
    });
    expect([response.status, response.status === 201 ? null : await response.text()]).toEqual([201, null]);
    const answer = (await response.json()) as { id: string; files: unknown[] };
    expect(answer.files).toHaveLength(1);
    expect(await storedData(answer.id)).toEqual({ name: 'Ada', email: 'ada@example.com', tags: ['x', 'y'] });
  });

  it('applies a changed shape at once (the cached form is dropped by the change feed)', async () => {
    const { token, form } = await shapedForm();
    expect((await post(token, form.code, GOOD)).status).toBe(201);
    const em = harness.services.db.em.fork();
    const row = await em.findOneOrFail(FormSchema, { id: form.id });
    row.fieldsSchema = toJsonSchema([field('message', 'text', { required: true })]);
    await em.flush();
    // The feed tells the gateway as the change commits; allow it a moment on PostgreSQL.
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 400; attempt++) {
      status = (await post(token, form.code, GOOD)).status;
      if (status !== 400) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(status).toBe(400);
    expect((await post(token, form.code, { message: 'hello' })).status).toBe(201);
  });

  it('accepts every key, as before, when the form declares no fields', async () => {
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    expect((await post(token, form.code, { anything: ['goes', 1, { deep: true }] })).status).toBe(201);
  });
});
