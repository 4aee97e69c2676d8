import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '../config/types.js';
import { createS3Client } from '../storage/s3-storage.js';

// A real S3-protocol server (s3rver) on loopback for tests: port 0, a fresh folder, one bucket.
// It checks request signatures against its fixed credentials, which the helpers below use.

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The S3 storage configuration that reaches this server. */
  config: S3StorageConfig;
  /** Environment variables that select it (for testConfig / startTestGateway). */
  env: Record<string, string>;
  /** A client on the same server, to look at the bucket behind the code's back. */
  client: S3Client;
  close(): Promise<void>;
}

export function s3Environment(endpoint: string, bucket: string): Record<string, string> {
  return {
    STORAGE: 's3',
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
  };
}

export function s3StorageConfig(endpoint: string, bucket: string): S3StorageConfig {
  return {
    driver: 's3',
    bucket,
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: CREDENTIALS,
  };
}

export async function startTestS3(bucket = 'intake-test'): Promise<TestS3> {
  // Loaded here, not at the top: every test file imports this module through `@intake/shared/test`,
  // few start an S3 server, and loading s3rver costs about 0.2 s of CPU per file.
  const { default: S3rver } = await import('s3rver');
  const directory = await mkdtemp(path.join(tmpdir(), 'intake-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const config = s3StorageConfig(endpoint, bucket);
  const client = createS3Client(config);
  return {
    endpoint,
    bucket,
    config,
    env: s3Environment(endpoint, bucket),
    client,
    close: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** An http:// endpoint on loopback where nothing listens (a port that was free a moment ago). */
export async function closedLoopbackEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
