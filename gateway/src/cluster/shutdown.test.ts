// Graceful shutdown of the real process (`npm start`'s entry, compiled: build first). Uploads are
// in flight when SIGTERM arrives: those that end within SHUTDOWN_TIMEOUT_MS get 201 and are fully
// stored, the one that dribbles past it is cut and leaves nothing; a new connection is refused, a
// request that arrives on an open connection gets 503; the process exits 0; and afterwards every
// row has its object and every object its row.
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { once } from 'node:events';
import { Agent, get, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '@intake/shared/config';
import { migrate } from '@intake/shared/db';
import { StoredFileSchema, SubmissionSchema } from '@intake/shared/entities';
import { createLogger } from '@intake/shared/logger';
import { generateSecret } from '@intake/shared/secrets';
import { createServices, openConfiguredDatabase, type Services } from '@intake/shared/services';
import {
  createScratchPostgres,
  killProcesses,
  listeningUrls,
  makeForm,
  makeSite,
  runScript,
  testDriverName,
  waitForLogEntry,
} from '@intake/shared/test';
import { pdf } from '@intake/test-files';

const SHUTDOWN_TIMEOUT_MS = 4000;

/** GET on a connection of its own (no keep-alive pool): the status, or the connection error's code. */
function statusOf(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    }).once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type Outcome = { status: number; body: Record<string, unknown> } | { error: string };

/**
 * A multipart upload written slowly: the head and a first chunk at once, the rest only after `go`
 * resolves, `chunkSize` bytes every `intervalMs`.
 */
function slowUpload(
  url: string,
  credentials: { code: string; apiKey: string; token: string },
  file: { name: string; bytes: Buffer },
  pace: { go: Promise<void>; chunkSize: number; intervalMs: number },
): Promise<Outcome> {
  const boundary = `----intake${generateSecret(8, 'hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nhello\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="fichier"; filename="${file.name}"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const body = Buffer.concat([head, file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return new Promise<Outcome>((resolve) => {
    const req = request(`${url}/api/v1/send/${credentials.code}`, {
      method: 'POST',
      headers: {
        'X-KEY-SERVICE': credentials.apiKey,
        Authorization: `Bearer ${credentials.token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': body.length,
      },
    });
    req.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      response.once('end', () =>
        resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }),
      );
    });
    const writeRest = async () => {
      let offset = head.length + pace.chunkSize;
      req.write(body.subarray(0, offset));
      await pace.go;
      while (offset < body.length && !req.destroyed) {
        await sleep(pace.intervalMs);
        req.write(body.subarray(offset, offset + pace.chunkSize));
        offset += pace.chunkSize;
      }
      req.end();
    };
    void writeRest();
  });
}

/** A connection whose request head is only half sent: the server sees a request in progress. */
function halfSentRequest(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\n`);
  return {
    /** Ends the head; resolves with everything the server answered before closing. */
    async finish(): Promise<string> {
      socket.write('\r\n');
      await closed;
      return received;
    },
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

async function readObject(services: Services, key: string): Promise<Buffer | undefined> {
  const object = await services.storage.get(key);
  if (!object) {
    return undefined;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchPostgres(process.env.TEST_DATABASE_URL);
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
});

afterAll(async () => {
  await dropDatabase?.();
});

describe(`graceful shutdown of the real process on ${testDriverName()}`, () => {
  it('finishes in-flight uploads within the drain timeout, refuses new requests, cuts the late one, leaves nothing half-stored, exits 0', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-shutdown-'));
    const env: Record<string, string> = {
      GATEWAY_PORT: '0',
      ADMIN_PORT: '0',
      API_KEY: generateSecret(32),
      JWT_SECRET: generateSecret(32),
      TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'info',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    // The same configuration as the process, to prepare the database before and inspect it after.
    const config = parseConfig({ ...env, DATA_DIR: path.join(cwd, 'data') });
    const open = async () => createServices(config, await openConfiguredDatabase(config), createLogger('silent'));

    const before = await open();
    await migrate(before.db);
    const { site, token } = await makeSite(before);
    const form = await makeForm(before, site);
    await before.db.close(true);

    const started = runScript('scripts/start.js', cwd, env);
    try {
      // SIGTERM is the process's to handle only once both services are up.
      const { gateway: url } = await listeningUrls(started, ['gateway', 'admin']);
      const credentials = { code: form.code, apiKey: env.API_KEY!, token };
      let signalled!: () => void;
      const go = new Promise<void>((resolve) => (signalled = resolve));

      // Three uploads that end about half a second after the signal, one that would need 20 s.
      const quickFiles = [0, 1, 2].map((n) => ({ name: `quick-${n}.pdf`, bytes: pdf(200_000 + n * 1000) }));
      const quick = quickFiles.map((file) =>
        slowUpload(url, credentials, file, { go, chunkSize: 20_000, intervalMs: 50 }),
      );
      const late = slowUpload(
        url,
        credentials,
        { name: 'late.pdf', bytes: pdf(200_000) },
        { go, chunkSize: 2000, intervalMs: 200 },
      );
      const halfSent = halfSentRequest(url);
      // Give the process time to read the four request heads; an answer on another connection
      // shows its event loop has come round since.
      await sleep(500);
      expect(await statusOf(`${url}/healthz`)).toBe(200);

      const signalledAt = Date.now();
      started.child.kill('SIGTERM');
      const draining = await waitForLogEntry(
        started,
        (entry) => entry.msg === 'draining' && entry.service === 'gateway',
        'the gateway draining',
      );
      // The four uploads were in flight when the drain began (the half-sent head is not a request yet).
      expect(draining.inFlight).toBe(4);
      signalled();

      // A new connection is refused; a request completed on an open connection gets 503.
      expect(await statusOf(`${url}/healthz`)).toBe('ECONNREFUSED');
      const answer = await halfSent.finish();
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toMatch(/\r\nretry-after: \d+\r\n/i);
      expect(answer).toContain('"code":"service_unavailable"');

      const outcomes = await Promise.all(quick);
      for (const [index, outcome] of outcomes.entries()) {
        expect(outcome).toEqual({
          status: 201,
          body: expect.objectContaining({
            files: [expect.objectContaining({ sha256: sha256(quickFiles[index]!.bytes) })],
          }),
        });
      }
      const lateOutcome = await late;
      expect(lateOutcome).toEqual({ error: expect.any(String) });

      expect(await started.exited).toBe(0);
      // Bounded: the drain timeout, the unwind grace, and closing the database.
      expect(Date.now() - signalledAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 2000 + 5000);
      expect(started.output()).toContain('drain timeout');

      const after = await open();
      try {
        const em = after.db.em.fork();
        const submissions = await em.find(SubmissionSchema, {});
        const accepted = outcomes.map((outcome) => ('body' in outcome ? outcome.body.id : undefined));
        expect(submissions.map((submission) => submission.id).sort()).toEqual([...accepted].sort());
        const rows = await em.find(StoredFileSchema, {});
        expect(rows).toHaveLength(quickFiles.length);
        for (const row of rows) {
          const bytes = await readObject(after, row.storageKey);
          expect({ key: row.storageKey, sha256: bytes && sha256(bytes) }).toEqual({
            key: row.storageKey,
            sha256: row.sha256,
          });
        }
        // No object without its row, no half-written object, no upload left in DATA_DIR/tmp.
        expect(await filesUnder(path.join(cwd, 'data', 'files'))).toHaveLength(rows.length);
        expect(await filesUnder(path.join(cwd, 'data', 'tmp'))).toEqual([]);
      } finally {
        await after.db.close(true);
      }
    } finally {
      await killProcesses([started]);
    }
  }, 120_000);

  it('writes every log line to stdout before it exits: the access line of each last request, then `stopped`', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-shutdown-logs-'));
    const started = runScript('scripts/start.js', cwd, {
      GATEWAY_PORT: '0',
      ADMIN_PORT: '0',
      LOG_LEVEL: 'info',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    // 'exit' can come before the last bytes of stdout are read; 'close' comes after them.
    const closed = once(started.child, 'close');
    try {
      const { gateway: url } = await listeningUrls(started, ['gateway', 'admin']);
      // Many answers in a burst, the signal right after the last: their lines are still being written.
      const agent = new Agent({ keepAlive: true, maxSockets: 20 });
      const statuses = await Promise.all(
        Array.from(
          { length: 400 },
          () =>
            new Promise<number>((resolve, reject) => {
              get(`${url}/healthz`, { agent }, (response) => {
                response.resume();
                resolve(response.statusCode!);
              }).once('error', reject);
            }),
        ),
      );
      started.child.kill('SIGTERM');
      agent.destroy();
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(await started.exited).toBe(0);
      await closed;

      const entries = started
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const healthLines = entries.filter((entry) => entry.msg === 'request' && entry.route === '/healthz');
      expect(healthLines).toHaveLength(statuses.length);
      expect(entries.at(-1)).toEqual(expect.objectContaining({ msg: 'stopped' }));
    } finally {
      await killProcesses([started]);
    }
  }, 120_000);
});
