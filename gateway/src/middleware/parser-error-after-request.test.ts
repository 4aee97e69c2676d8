import { SubmissionSchema } from '@intake/shared/entities';
import { makeForm, makeSite, rawResponses, testDriverName } from '@intake/shared/test';
import { startTestGateway } from '../test/harness.js';

// A valid request followed, in the same packet, by bytes that are not HTTP: the parser hands the
// request to its handler, then fails on the rest. The client must learn the fate of the request
// it sent (201 with the id that was stored) before the refusal of the garbage and the close; a
// client never told "stored" would retry and store twice.

let harness: Awaited<ReturnType<typeof startTestGateway>>;

beforeAll(async () => {
  harness = await startTestGateway();
});

afterAll(async () => {
  await harness.close();
});

function rawPost(code: string, apiKey: string, token: string, data: unknown): string {
  const body = JSON.stringify(data);
  return (
    `POST /api/v1/send/${code} HTTP/1.1\r\n` +
    'Host: intake.test\r\n' +
    `X-KEY-SERVICE: ${apiKey}\r\n` +
    `Authorization: Bearer ${token}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
    body
  );
}

async function storedIds(formId: string): Promise<string[]> {
  const rows = await harness.services.db.em.fork().find(SubmissionSchema, { form: formId }, { orderBy: { id: 'asc' } });
  return rows.map((row) => row.id);
}

async function expectAnswered(responses: Response[], requests: number, formId: string): Promise<void> {
  expect(responses.map((response) => response.status)).toEqual([...Array<number>(requests).fill(201), 400]);
  const ids: string[] = [];
  for (const response of responses.slice(0, requests)) {
    ids.push(((await response.json()) as { id: string }).id);
  }
  const refusal = responses[requests]!;
  expect(refusal.headers.get('connection')).toBe('close');
  expect(((await refusal.json()) as { code: string }).code).toBe('request_invalid');
  expect(await storedIds(formId)).toEqual([...ids].sort());
}

describe(`a request followed by garbage on one connection, on ${testDriverName()}`, () => {
  it('answers the stored request with its 201 first, then refuses the garbage with 400 and closes', async () => {
    const { apiKey } = harness.services.config;
    const { site, token } = await makeSite(harness.services);
    // It was racy (the 400 overtook the 201 most of the time): play it several times.
    for (let attempt = 0; attempt < 5; attempt++) {
      const form = await makeForm(harness.services, site);
      const packet = rawPost(form.code, apiKey, token, { attempt, message: 'hello' }) + 'GARBAGE';
      await expectAnswered(await rawResponses(harness.gateway.url, packet), 1, form.id);
    }
  });

  it('answers every pipelined request before the refusal', async () => {
    const { apiKey } = harness.services.config;
    const { site, token } = await makeSite(harness.services);
    for (let attempt = 0; attempt < 3; attempt++) {
      const form = await makeForm(harness.services, site);
      const packet =
        rawPost(form.code, apiKey, token, { attempt, message: 'first' }) +
        rawPost(form.code, apiKey, token, { attempt, message: 'second' }) +
        'GARBAGE';
      await expectAnswered(await rawResponses(harness.gateway.url, packet), 2, form.id);
    }
  });

  it('still refuses garbage alone, and a request cut short by garbage stores nothing', async () => {
    const { apiKey } = harness.services.config;
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    const alone = await rawResponses(harness.gateway.url, 'GARBAGE\r\n\r\n');
    expect(alone.map((response) => response.status)).toEqual([400]);

    // Chunked body broken by a chunk size that is not hex: the body never ends, nothing is stored.
    const head = rawPost(form.code, apiKey, token, {})
      .split('\r\n\r\n')[0]!
      .replace(/Content-Length: \d+/, 'Transfer-Encoding: chunked');
    const cut = await rawResponses(harness.gateway.url, `${head}\r\n\r\n2\r\n{}\r\nZZ\r\n`);
    expect(cut.map((response) => response.status)).toEqual([400]);
    expect(await storedIds(form.id)).toEqual([]);
  });
});
