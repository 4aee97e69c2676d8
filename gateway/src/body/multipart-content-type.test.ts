import { makeForm, makeSite } from '@intake/shared/test';
import { footprint, send, startTestGateway } from '../test/harness.js';
import { pdf } from '@intake/test-files';

// A boundary with characters that a Content-Type parameter may only hold quoted: refused, never
// taken for an empty form (which stored a submission without the fields and files that were sent).

type Harness = Awaited<ReturnType<typeof startTestGateway>>;

let harness: Harness;

beforeAll(async () => {
  harness = await startTestGateway();
});

afterAll(async () => {
  await harness.close();
});

function bodyWithFile(boundary: string): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    ),
    pdf(),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

describe('multipart Content-Type parameters', () => {
  it.each(["'/Dkf?", 'a:b', 'x=y', '(paren)', 'comma,here'])(
    '400 body_invalid, nothing stored, for the unquoted boundary %s',
    async (boundary) => {
      const { site, token } = await makeSite(harness.services);
      const form = await makeForm(harness.services, site);
      const before = await footprint(harness.services);
      const response = await send(harness.gateway.url, form.code, {
        apiKey: harness.services.config.apiKey,
        token,
        body: new Uint8Array(bodyWithFile(boundary)),
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('body_invalid');
      expect(await footprint(harness.services)).toEqual(before);
    },
  );

  it('201 with the field and the file when the same boundary is quoted', async () => {
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    const boundary = "'/Dkf?";
    const response = await send(harness.gateway.url, form.code, {
      apiKey: harness.services.config.apiKey,
      token,
      body: new Uint8Array(bodyWithFile(boundary)),
      headers: { 'Content-Type': `multipart/form-data; boundary="${boundary}"` },
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { files: { name: string }[] };
    expect(answer.files.map((file) => file.name)).toEqual(['report.pdf']);
  });
});
