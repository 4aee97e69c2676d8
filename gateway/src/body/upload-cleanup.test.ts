import { footprint, send, startTestGateway } from '../test/harness.js';
import { makeForm, makeSite } from '@intake/shared/test';

// A multipart body that ends inside a file part fails the file's stream while the upload engine may
// still be opening its temporary file; whatever it created must be gone when the refusal is sent.

type Harness = Awaited<ReturnType<typeof startTestGateway>>;

let harness: Harness;

beforeAll(async () => {
  harness = await startTestGateway();
});

afterAll(async () => {
  await harness.close();
});

function cutOffInsideFile(boundary: string, size: number): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n` +
    `Content-Type: text/plain\r\n\r\n${'x'.repeat(size)}`
  );
}

describe('multipart uploads cut off mid-file', () => {
  it('400 body_invalid, and no temporary upload left behind, every time', async () => {
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    const apiKey = harness.services.config.apiKey;
    const leftovers: number[] = [];
    let uploadsBefore = (await footprint(harness.services)).uploads;
    for (let attempt = 0; attempt < 60; attempt++) {
      const response = await send(harness.gateway.url, form.code, {
        apiKey,
        token,
        body: cutOffInsideFile('b0undary', attempt * 7),
        headers: { 'Content-Type': 'multipart/form-data; boundary=b0undary' },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('body_invalid');
      const { uploads } = await footprint(harness.services);
      if (uploads > uploadsBefore) {
        leftovers.push(attempt);
      }
      uploadsBefore = uploads;
    }
    expect(leftovers).toEqual([]);
  });
});
