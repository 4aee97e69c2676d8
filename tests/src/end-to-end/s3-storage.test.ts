// STORAGE=s3 through the listening services: a submission's file lands in a real S3-protocol server
// (s3rver on loopback) byte for byte and downloads back through the admin API; with the endpoint
// unreachable, the submission answers 503 and leaves nothing behind.
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ensureAdmin, startAdmin } from '@intake/admin-api';
import { StoredFileSchema } from '@intake/shared/entities';
import type { RunningServer } from '@intake/shared/http';
import type { Services } from '@intake/shared/services';
import { createStorage } from '@intake/shared/storage';
import {
  closedLoopbackEndpoint,
  createTestServices,
  graphqlData,
  makeForm,
  makeSite,
  s3StorageConfig,
  startTestS3,
  testDriverName,
  type TestS3,
} from '@intake/shared/test';
import { startGateway } from '@intake/gateway';
import { footprint, send } from '@intake/gateway/test';
import { pdf } from '@intake/test-files';

const ADMIN = { email: 'admin@example.com', password: 'a long enough admin password' };

let s3: TestS3;
let services: Awaited<ReturnType<typeof createTestServices>>;
let gateway: RunningServer;
let admin: Awaited<ReturnType<typeof startAdmin>>;
let formCode: string;
let siteToken: string;

function gql<T = any>(query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  return graphqlData<T>(admin.url, query, variables, token);
}

async function bucketKeys(): Promise<string[]> {
  const listing = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (listing.Contents ?? []).map((object) => object.Key!);
}

function multipart(bytes: Buffer): FormData {
  const body = new FormData();
  body.append('name', 'Grace');
  body.append('report', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'report.pdf');
  return body;
}

beforeAll(async () => {
  s3 = await startTestS3();
  services = await createTestServices({ ...s3.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  await ensureAdmin(services);
  gateway = await startGateway(services);
  admin = await startAdmin(services);
  const { site, token } = await makeSite(services);
  formCode = (await makeForm(services, site)).code;
  siteToken = token;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await admin?.close();
  await services?.close();
  await s3?.close();
});

describe(`S3 storage through the services (${testDriverName()})`, () => {
  it('stores an uploaded file in the bucket byte for byte and downloads it through the admin API', async () => {
    expect(services.config.storage.driver).toBe('s3');
    const bytes = pdf(6 * 1024 * 1024);
    const response = await send(gateway.url, formCode, {
      apiKey: services.config.apiKey,
      token: siteToken,
      body: multipart(bytes),
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { id: string; files: { id: string }[] };

    const row = await services.db.em.fork().findOneOrFail(StoredFileSchema, { id: answer.files[0]!.id });
    expect(await bucketKeys()).toContain(row.storageKey);
    const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: row.storageKey }));
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(bytes)).toBe(true);
    // Nothing went to the local disk, and the upload's temporary file is gone.
    expect(await footprint(services)).toMatchObject({ objects: 0, uploads: 0 });

    const { login } = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
      e: ADMIN.email,
      p: ADMIN.password,
    });
    const { submission } = await gql(
      'query($id: ID!) { submission(id: $id) { files { downloadUrl } } }',
      { id: answer.id },
      login.token,
    );
    const download = await fetch(submission.files[0].downloadUrl);
    expect(download.status).toBe(200);
    expect(Number(download.headers.get('content-length'))).toBe(bytes.length);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers 503 service_unavailable with Retry-After and commits nothing when S3 cannot be reached', async () => {
    const config = { ...services.config, storage: s3StorageConfig(await closedLoopbackEndpoint(), s3.bucket) };
    const unreachable: Services = { ...services, config, storage: createStorage(config) };
    const outage = await startGateway(unreachable);
    try {
      const before = await footprint(services);
      const keysBefore = await bucketKeys();
      const started = Date.now();
      const response = await send(outage.url, formCode, {
        apiKey: services.config.apiKey,
        token: siteToken,
        body: multipart(pdf(200_000)),
      });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      const problem = (await response.json()) as { code: string; detail: string };
      expect(problem.code).toBe('service_unavailable');
      expect(JSON.stringify(problem)).not.toMatch(/S3RVER|127\.0\.0\.1/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await footprint(services)).toEqual(before);
      expect(await bucketKeys()).toEqual(keysBefore);

      const ready = await fetch(`${outage.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { checks: { storage: string } }).checks.storage).toBe('down');
    } finally {
      await outage.close();
    }
  });
});
