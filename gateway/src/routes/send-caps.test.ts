// Caps and a schedule through the real gateway over HTTP, on the test database (PGlite, or
// PostgreSQL with TEST_DATABASE_URL): a form outside its schedule or at its cap answers 403
// form_closed and stores nothing; 50 concurrent senders against a cap of 10 get exactly 10 stored.
import { once } from 'node:events';
import { connect } from 'node:net';
import { FormSchema, SubmissionSchema, type Form, type Site } from '@intake/shared/entities';
import { toJsonSchema } from '@intake/shared/form-shape';
import { eraseSubmissions } from '@intake/shared/lifecycle';
import { makeForm, makeSite, testDriverName } from '@intake/shared/test';
import { footprint, send, startTestGateway } from '../test/harness.js';

type Harness = Awaited<ReturnType<typeof startTestGateway>>;
type Limits = Partial<
  Pick<Form, 'maxSubmissions' | 'maxSubmissionsPerAddress' | 'capAddressField' | 'opensAt' | 'closesAt'>
>;

describe(`caps and a schedule per form on ${testDriverName()}`, () => {
  let harness: Harness;
  let site: Site;
  let token: string;
  let apiKey: string;

  beforeAll(async () => {
    harness = await startTestGateway();
    ({ site, token } = await makeSite(harness.services));
    apiKey = harness.services.config.apiKey;
  });

  afterAll(async () => {
    await harness.close();
  });

  async function formWith(limits: Limits, extra: Parameters<typeof makeForm>[2] = {}): Promise<Form> {
    const form = await makeForm(harness.services, site, extra);
    await harness.services.db.em.fork().nativeUpdate(FormSchema, { id: form.id }, limits);
    return form;
  }

  const post = (form: Form, json: unknown) => send(harness.gateway.url, form.code, { apiKey, token, json });
  const stored = (form: Form) => harness.services.db.em.fork().count(SubmissionSchema, { form: form.id });

  async function expectClosed(response: Response, members: Record<string, unknown>): Promise<string> {
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({
      type: 'urn:intake:problem:form_closed',
      status: 403,
      code: 'form_closed',
      ...members,
    });
    return text;
  }

  it('refuses a submission before the opening, saying when the form opens, and stores nothing', async () => {
    const opensAt = new Date(Date.now() + 3_600_000);
    const form = await formWith({ opensAt });
    const before = await footprint(harness.services);
    const text = await expectClosed(await post(form, { message: 'too early secret' }), {
      reason: 'not_yet_open',
      opensAt: opensAt.toISOString(),
    });
    expect(text).not.toContain('too early secret');
    expect(await footprint(harness.services)).toEqual(before);
  });

  it('accepts between the opening and the closing, and refuses from the closing on', async () => {
    const open = await formWith({
      opensAt: new Date(Date.now() - 60_000),
      closesAt: new Date(Date.now() + 3_600_000),
    });
    expect((await post(open, { message: 'in time' })).status).toBe(201);

    const closesAt = new Date(Date.now() - 1000);
    const closed = await formWith({ closesAt });
    await expectClosed(await post(closed, { message: 'too late' }), {
      reason: 'closed',
      closedAt: closesAt.toISOString(),
    });
    expect(await stored(closed)).toBe(0);
  });

  it('refuses at the cap, and a deleted submission does not reopen it', async () => {
    const form = await formWith({ maxSubmissions: 2 });
    expect((await post(form, { n: 1 })).status).toBe(201);
    expect((await post(form, { n: 2 })).status).toBe(201);
    await expectClosed(await post(form, { n: 3 }), { reason: 'full' });
    expect(await stored(form)).toBe(2);

    await harness.services.db.em.fork().nativeDelete(SubmissionSchema, { form: form.id });
    await expectClosed(await post(form, { n: 4 }), { reason: 'full' });

    // A full form answers before the body: an upload of 10 MB is refused after its first kilobyte.
    const { hostname, port } = new URL(harness.gateway.url);
    const socket = connect(Number(port), hostname);
    const boundary = 'capped';
    socket.write(
      `POST /api/v1/send/${form.code} HTTP/1.1\r\nHost: ${hostname}\r\nX-KEY-SERVICE: ${apiKey}\r\n` +
        `Authorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${10 * 1024 * 1024}\r\n\r\n--${boundary}\r\n` +
        `Content-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n` +
        'x'.repeat(1024),
    );
    const [first] = (await once(socket, 'data')) as [Buffer];
    socket.destroy();
    expect(first.toString('utf8')).toMatch(/^HTTP\/1\.1 403 /);
    expect(first.toString('utf8')).toContain('"reason":"full"');
  });

  it('counts a form that already holds submissions from what it holds', async () => {
    const form = await formWith({});
    expect((await post(form, { n: 1 })).status).toBe(201);
    await harness.services.db.em.fork().nativeUpdate(FormSchema, { id: form.id }, { maxSubmissions: 2 });
    // The gateway's cache hears of the change through the database's change feed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await post(form, { n: 2 })).status).toBe(201);
    await expectClosed(await post(form, { n: 3 }), { reason: 'full' });
  });

  it('caps each address of a declared e-mail field, ignoring case, without echoing it', async () => {
    const form = await formWith(
      { maxSubmissionsPerAddress: 1, capAddressField: 'email' },
      {
        fieldsSchema: toJsonSchema([
          { name: 'email', type: 'email', required: true, maxLength: null, choices: null },
          { name: 'message', type: 'text', required: false, maxLength: null, choices: null },
        ]),
      },
    );
    expect((await post(form, { email: 'ada@example.test', message: 'one' })).status).toBe(201);
    const text = await expectClosed(await post(form, { email: 'ADA@Example.test', message: 'two' }), {
      reason: 'full_for_address',
    });
    expect(text.toLowerCase()).not.toContain('ada@example.test');
    expect((await post(form, { email: 'grace@example.test', message: 'three' })).status).toBe(201);
    expect(await stored(form)).toBe(2);
    // Neither address is kept in the counts, only a hash of it.
    const scopes = await harness.services.db.em
      .fork()
      .execute<{ scope: string }[]>(`select "scope" from "form_submission_counts" where "form_id" = ?`, [form.id]);
    expect(scopes).toHaveLength(2);
    for (const { scope } of scopes) {
      expect(scope).toMatch(/^[0-9a-f]{64}$/);
    }

    // Erasing Ada's submission forgets her count, and only hers: she may send again, Grace may not.
    const [ada] = await harness.services.db.em
      .fork()
      .execute<{ id: string }[]>(`select "id" from "submissions" where "form_id" = ? and "data"->>'email' = ?`, [
        form.id,
        'ada@example.test',
      ]);
    await eraseSubmissions(harness.services, [ada!.id]);
    const left = await harness.services.db.em
      .fork()
      .execute<unknown[]>(`select 1 from "form_submission_counts" where "form_id" = ?`, [form.id]);
    expect(left).toHaveLength(1);
    expect((await post(form, { email: 'Ada@example.test', message: 'again' })).status).toBe(201);
    await expectClosed(await post(form, { email: 'grace@example.test', message: 'four' }), {
      reason: 'full_for_address',
    });
  });

  it('does not count spam, but refuses it at the cap like any submission', async () => {
    const form = await formWith({ maxSubmissions: 1 }, { honeypotFields: ['website'] });
    expect((await post(form, { message: 'bot', website: 'http://spam.test' })).status).toBe(201);
    expect((await post(form, { message: 'person' })).status).toBe(201);
    await expectClosed(await post(form, { message: 'bot', website: 'http://spam.test' }), { reason: 'full' });
    await expectClosed(await post(form, { message: 'person again' }), { reason: 'full' });
    expect(await stored(form)).toBe(2);
  });

  it("shows a browser's own post to a closed form the refusal page, saying when it opens", async () => {
    const opensAt = new Date(Date.UTC(2999, 0, 1, 9, 0));
    const form = await formWith({ opensAt });
    await harness.services.db.em
      .fork()
      .nativeUpdate(
        FormSchema,
        { id: form.id },
        { browserPosting: true, browserOrigins: ['https://www.example.org'], browserChallenge: 'off' },
      );
    const response = await fetch(`${harness.gateway.url}/api/v1/send/${form.code}`, {
      method: 'POST',
      headers: { Origin: 'https://www.example.org', Accept: 'text/html,*/*;q=0.8' },
      body: new URLSearchParams({ message: 'early bird secret' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toContain('text/html');
    const page = await response.text();
    expect(page).toContain('This form opens at 2999-01-01 09:00 UTC.');
    expect(page).not.toContain('early bird secret');
    expect(await stored(form)).toBe(0);
  });

  it('stores exactly the cap of 50 concurrent senders and refuses the rest', async () => {
    const form = await formWith({ maxSubmissions: 10 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) => post(form, { message: `sender ${index}` })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 403)).toHaveLength(40);
    const refused = await Promise.all(
      responses
        .filter((response) => response.status === 403)
        .map(async (response) => (await response.json()) as { code: string }),
    );
    expect(new Set(refused.map((problem) => problem.code))).toEqual(new Set(['form_closed']));
    expect(await stored(form)).toBe(10);
  });
});
