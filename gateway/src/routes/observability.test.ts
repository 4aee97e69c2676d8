import { randomBytes } from 'node:crypto';
import { createLogger } from '@intake/shared/logger';
import { MIME_DOCX, MIME_PNG, MIME_ZIP } from '@intake/shared/mime-types';
import type { Services } from '@intake/shared/services';
import { createTestServices, makeForm, makeSite, testDriverName } from '@intake/shared/test';
import { jest } from '@jest/globals';
import { startGateway } from '../index.js';
import { rawZip, docx, png } from '@intake/test-files';
import { clamdStatus, describeClamd, eicarBytes } from '../test/clamd.js';
import { send, withConfig } from '../test/harness.js';

// Observability through a listening gateway: the access line of each request (read back from a
// logger writing to memory), the X-Request-Id rule, /metrics and /readyz.

/** Every JSON line the gateway logged. */
const logged = {
  text: '',
  write(line: string) {
    logged.text += line;
  },
};

function logLines(): Record<string, unknown>[] {
  return logged.text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function accessLines(requestId: string): Record<string, unknown>[] {
  return logLines().filter((line) => line.msg === 'request' && line.requestId === requestId);
}

/** The access line is written when the response closes, which may be just after the client read it. */
async function eventually<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function theAccessLine(requestId: string): Promise<Record<string, unknown>> {
  const lines = await eventually(
    () => accessLines(requestId),
    (found) => found.length > 0,
  );
  // Give a second line the chance to show up: there must be exactly one.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(accessLines(requestId)).toHaveLength(1);
  return lines[0]!;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) {
      continue;
    }
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and these labels (among others); 0 when absent. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  expect(found.length).toBeLessThanOrEqual(1);
  return found[0]?.value ?? 0;
}

async function scrape(baseUrl: string): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(`${baseUrl}/metrics`);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, samples: parseMetrics(text) };
}

/** Scrapes until `ok` holds (the last request's sample lands when its response closes). */
async function scrapeUntil(baseUrl: string, ok: (samples: Sample[]) => boolean) {
  return eventually(
    () => scrape(baseUrl),
    ({ samples }) => ok(samples),
  );
}

const SEND_ROUTE = '/api/v1/send/:code';

type TestServices = Awaited<ReturnType<typeof createTestServices>>;

let services: TestServices;
let withLogger: Services;
let gateway: Awaited<ReturnType<typeof startGateway>>;
let url: string;
let apiKey: string;

beforeAll(async () => {
  services = await createTestServices();
  withLogger = { ...services, logger: createLogger('info', {}, logged) };
  gateway = await startGateway(withLogger);
  url = gateway.url;
  apiKey = services.config.apiKey;
});

afterAll(async () => {
  await gateway.close();
  await services.close();
});

async function siteAndForm() {
  const { site, token } = await makeSite(services);
  const form = await makeForm(services, site);
  return { site, token, form };
}

function marker(label: string): string {
  return `${label}-${randomBytes(6).toString('hex')}`;
}

describe(`gateway observability on ${testDriverName()}`, () => {
  it('logs one access line with ids and never a value, a key, a token or a file name', async () => {
    const { site, token, form } = await siteAndForm();
    const value = marker('submitted-value');
    const fileName = `${marker('holiday-photo')}.png`;
    const body = new FormData();
    body.append('message', value);
    body.append('photo', new Blob([new Uint8Array(png())], { type: MIME_PNG }), fileName);
    const requestId = marker('accepted');

    const response = await send(url, form.code, { apiKey, token, body, headers: { 'X-Request-Id': requestId } });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe(requestId);

    const line = await theAccessLine(requestId);
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      msg: 'request',
      service: 'gateway',
      requestId,
      method: 'POST',
      route: SEND_ROUTE,
      status: 201,
      durationMs: expect.any(Number),
      siteId: site.id,
      formId: form.id,
    });
    expect(line.durationMs as number).toBeGreaterThan(0);
    expect(JSON.stringify(line)).not.toContain(form.code);
    for (const secret of [value, fileName, apiKey, token]) {
      expect(logged.text).not.toContain(secret);
    }
  });

  it('logs a refusal as one line with its code, at info level', async () => {
    const { token, form } = await siteAndForm();
    const requestId = marker('refused');
    const response = await send(url, form.code, {
      apiKey: null,
      token,
      json: { message: 'never logged' },
      headers: { 'X-Request-Id': requestId },
    });
    expect(response.status).toBe(401);

    const line = await theAccessLine(requestId);
    expect(line).toEqual(
      expect.objectContaining({ level: 30, route: SEND_ROUTE, status: 401, code: 'api_key_missing' }),
    );
    expect(line).not.toHaveProperty('siteId');
    expect(logged.text).not.toContain(token);
    expect(logged.text).not.toContain('never logged');
  });

  it('keeps a sane X-Request-Id and replaces one with spaces or of 300 characters', async () => {
    const sane = 'req-1.2_3:abc';
    const kept = await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': sane } });
    expect(kept.headers.get('x-request-id')).toBe(sane);
    expect((await theAccessLine(sane)).route).toBe('/healthz');

    for (const insane of ['has spaces in it', 'a'.repeat(300)]) {
      const replaced = await fetch(`${url}/healthz`, { headers: { 'X-Request-Id': insane } });
      const echoed = replaced.headers.get('x-request-id')!;
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
      expect((await theAccessLine(echoed)).status).toBe(200);
      expect(logged.text).not.toContain(insane);
    }

    const generated = await fetch(`${url}/healthz`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('counts accepted submissions, files by type and inspections, under the route pattern', async () => {
    const { token, form } = await siteAndForm();
    const before = await scrape(url);
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('photo', new Blob([new Uint8Array(png())], { type: MIME_PNG }), 'photo.png');
    body.append('letter', new Blob([new Uint8Array(await docx())], { type: MIME_DOCX }), 'letter.docx');
    const response = await send(url, form.code, { apiKey, token, body });
    expect(response.status).toBe(201);

    const httpLabels = { service: 'gateway', method: 'POST', route: SEND_ROUTE, status: '201' };
    const after = await scrapeUntil(
      url,
      (samples) =>
        valueOf(samples, 'http_request_duration_seconds_count', httpLabels) ===
        valueOf(before.samples, 'http_request_duration_seconds_count', httpLabels) + 1,
    );
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after.samples, name, labels) - valueOf(before.samples, name, labels);

    expect(delta('http_request_duration_seconds_count', httpLabels)).toBe(1);
    expect(delta('intake_submissions_accepted_total')).toBe(1);
    expect(delta('intake_files_total', { type: MIME_PNG })).toBe(1);
    expect(delta('intake_files_total', { type: MIME_DOCX })).toBe(1);
    expect(delta('intake_file_inspection_duration_seconds_count', { type: MIME_DOCX, result: 'passed' })).toBe(1);
    // A PNG is not an archive: no inspection sample for it.
    expect(after.text).not.toContain(`intake_file_inspection_duration_seconds_count{type="${MIME_PNG}"`);
    expect(after.text).not.toContain(form.code);
  });

  it('counts the group commits and their rows, as many as the database wrote', async () => {
    const { token, form } = await siteAndForm();
    const before = await scrape(url);
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => send(url, form.code, { apiKey, token, json: { name: `n${i}` } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const after = await scrape(url);
    const delta = (name: string) => valueOf(after.samples, name) - valueOf(before.samples, name);
    // Rows of one commit share its transaction id (xmin): the commits the database saw.
    const commits = await services.db.em
      .fork()
      .execute<{ commits: number }[]>(
        'select count(distinct xmin::text)::int as "commits" from "submissions" where "form_id" = ?',
        [form.id],
      );
    expect(delta('intake_submission_group_rows_sum')).toBe(24);
    expect(delta('intake_submission_group_rows_count')).toBe(commits[0]!.commits);
  });

  it('counts refusals by code, and unknown paths under `unmatched`', async () => {
    const { token, form } = await siteAndForm();
    const before = await scrape(url);

    expect((await send(url, form.code, { apiKey: null, token, json: {} })).status).toBe(401);
    expect((await send(url, form.code, { apiKey, token: 'not-a-token', json: {} })).status).toBe(403);
    const traversal = new FormData();
    traversal.append(
      'archive',
      new Blob([new Uint8Array(rawZip([{ name: '../../etc/passwd', content: 'x' }]))], { type: MIME_ZIP }),
      'a.zip',
    );
    expect((await send(url, form.code, { apiKey, token, body: traversal })).status).toBe(400);
    const unknownPath = `/no/such/${marker('path')}`;
    expect((await fetch(`${url}${unknownPath}`)).status).toBe(404);

    const unmatched = { service: 'gateway', method: 'GET', route: 'unmatched', status: '404' };
    const after = await scrapeUntil(
      url,
      (samples) =>
        valueOf(samples, 'http_request_duration_seconds_count', unmatched) ===
        valueOf(before.samples, 'http_request_duration_seconds_count', unmatched) + 1,
    );
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after.samples, name, labels) - valueOf(before.samples, name, labels);

    expect(delta('intake_refusals_total', { code: 'api_key_missing' })).toBe(1);
    expect(delta('intake_refusals_total', { code: 'token_invalid' })).toBe(1);
    expect(delta('intake_refusals_total', { code: 'archive_path_traversal' })).toBe(1);
    expect(delta('intake_refusals_total', { code: 'not_found' })).toBe(1);
    expect(delta('intake_submissions_accepted_total')).toBe(0);
    expect(delta('intake_file_inspection_duration_seconds_count', { type: MIME_ZIP, result: 'refused' })).toBe(1);
    expect(delta('http_request_duration_seconds_count', { route: SEND_ROUTE, status: '401' })).toBe(1);
    expect(delta('http_request_duration_seconds_count', { route: SEND_ROUTE, status: '403' })).toBe(1);
    expect(after.text).not.toContain(unknownPath);
    expect(after.text).not.toContain(form.code);
  });

  it('answers /metrics in Prometheus text, with process metrics, and counts it as no submission', async () => {
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE intake_submissions_accepted_total counter');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');

    const before = parseMetrics(text);
    await fetch(`${url}/metrics`);
    const after = await scrapeUntil(
      url,
      (samples) =>
        valueOf(samples, 'http_request_duration_seconds_count', { route: '/metrics' }) >=
        valueOf(before, 'http_request_duration_seconds_count', { route: '/metrics' }) + 1,
    );
    expect(valueOf(after.samples, 'http_request_duration_seconds_count', { route: '/metrics' })).toBeGreaterThan(
      valueOf(before, 'http_request_duration_seconds_count', { route: '/metrics' }),
    );
    expect(valueOf(after.samples, 'intake_submissions_accepted_total')).toBe(
      valueOf(before, 'intake_submissions_accepted_total'),
    );
  });

  if (testDriverName() === 'postgresql') {
    it('reports the PostgreSQL pool', async () => {
      const { samples } = await scrape(url);
      expect(valueOf(samples, 'intake_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'intake_db_pool_max_connections')).toBe(5);
      const idle = valueOf(samples, 'intake_db_pool_idle_connections');
      expect(idle).toBeGreaterThanOrEqual(0);
      expect(idle).toBeLessThanOrEqual(valueOf(samples, 'intake_db_pool_connections'));
      expect(valueOf(samples, 'intake_db_pool_waiting_requests')).toBe(0);
    });
  } else {
    it('reports no pool on the embedded PGlite (one in-process connection)', async () => {
      const { text } = await scrape(url);
      expect(text).not.toContain('intake_db_pool_');
    });
  }

  it('lists its readiness checks, and logs a 503 at error level', async () => {
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual(
      expect.objectContaining({ status: 'ok', checks: expect.objectContaining({ database: 'ok', storage: 'ok' }) }),
    );

    const ping = jest.spyOn(services.storage, 'ping').mockResolvedValue(false);
    try {
      const requestId = marker('unready');
      const unready = await fetch(`${url}/readyz`, { headers: { 'X-Request-Id': requestId } });
      expect(unready.status).toBe(503);
      expect(await unready.json()).toEqual(
        expect.objectContaining({
          status: 'unavailable',
          checks: expect.objectContaining({ database: 'ok', storage: 'down' }),
        }),
      );
      expect(await theAccessLine(requestId)).toEqual(
        expect.objectContaining({ level: 50, route: '/readyz', status: 503 }),
      );
    } finally {
      ping.mockRestore();
    }
  });
});

const clamd = await clamdStatus();

describeClamd(clamd, `scan durations through the gateway on ${testDriverName()}`, (found) => {
  it('observes each scan by verdict', async () => {
    const scanning = await startGateway(
      withConfig(withLogger, (config) => ({
        ...config,
        clamav: { enabled: true, socket: undefined, host: undefined, port: undefined, ...found.target },
      })),
    );
    try {
      const { token, form } = await siteAndForm();
      const clean = new FormData();
      clean.append('photo', new Blob([new Uint8Array(png())], { type: MIME_PNG }), 'photo.png');
      expect((await send(scanning.url, form.code, { apiKey, token, body: clean })).status).toBe(201);
      const infected = new FormData();
      infected.append('notes', new Blob([new Uint8Array(eicarBytes())], { type: 'text/plain' }), 'notes.txt');
      expect((await send(scanning.url, form.code, { apiKey, token, body: infected })).status).toBe(400);

      const { samples } = await scrapeUntil(
        scanning.url,
        (found) => valueOf(found, 'intake_refusals_total', { code: 'file_infected' }) === 1,
      );
      expect(valueOf(samples, 'intake_file_scan_duration_seconds_count', { result: 'clean' })).toBe(1);
      expect(valueOf(samples, 'intake_file_scan_duration_seconds_count', { result: 'infected' })).toBe(1);
      expect(valueOf(samples, 'intake_file_scan_duration_seconds_sum', { result: 'clean' })).toBeGreaterThan(0);
      expect(valueOf(samples, 'intake_submissions_accepted_total')).toBe(1);
    } finally {
      await scanning.close();
    }
  });
});
