// A smoke run of the bench harness (about a second): a bare ceiling server in its own process,
// autocannon against it, and the figures and memory the report is built from. It runs the compiled
// servers (`npx tsc -b` first). The bench's own figures are never asserted: only that it measures.
import { jest } from '@jest/globals';
import { serverEntry, startBenchServer } from './child-server.js';
import { measureFixedCosts } from './fixed-costs.js';
import { measureLoad, measureLone, percentile } from './load.js';
import { PLAIN_FIELDS, pngUpload } from './payloads.js';
import { packageOf, summarise } from './profile-summary.js';
import { splitByStage, type CpuProfile } from './request-stages.js';

jest.setTimeout(60_000);

describe('bench harness', () => {
  it('measures a bare Koa ceiling in a child process: answers, latency and memory', async () => {
    const server = await startBenchServer(serverEntry('bare-koa'));
    try {
      const cpuBefore = (await server.memory()).cpuMicros;
      const figure = await measureLoad(
        {
          url: `${server.url}/`,
          headers: { 'content-type': PLAIN_FIELDS.contentType },
          body: PLAIN_FIELDS.body,
          connections: 4,
        },
        { seconds: 1, warmupSeconds: 0 },
      );
      expect(figure.failures).toBe(0);
      expect(figure.requests).toBeGreaterThan(0);
      expect(figure.perSecond).toBeGreaterThan(0);
      expect(figure.p99).toBeGreaterThanOrEqual(figure.p50);
      const memory = await server.memory({ gc: true, resetPeak: true });
      expect(memory.rss).toBeGreaterThan(memory.heapUsed);
      expect(memory.peakRss).toBeGreaterThan(0);
      // The server's own CPU time, which the bench divides by the answers: it grew under the load.
      expect(cpuBefore).toBeGreaterThan(0);
      expect(memory.cpuMicros).toBeGreaterThan(cpuBefore);
    } finally {
      await server.stop();
    }
  });

  it('counts answers with another status as failures, not as throughput', async () => {
    const server = await startBenchServer(serverEntry('bare-koa'));
    try {
      const figure = await measureLoad(
        { url: `${server.url}/`, headers: { 'content-type': 'application/json' }, body: 'not json', connections: 2 },
        { seconds: 0.5, warmupSeconds: 0 },
      );
      expect(figure.perSecond).toBe(0);
      expect(figure.failures).toBeGreaterThan(0);
      expect(Object.keys(figure.unexpectedStatuses)).toEqual(['500']);
    } finally {
      await server.stop();
    }
  });

  it('times a lone client one request at a time, and profiles the server in its process', async () => {
    const server = await startBenchServer(serverEntry('bare-koa'));
    try {
      const request = {
        url: `${server.url}/`,
        headers: { 'content-type': PLAIN_FIELDS.contentType },
        body: PLAIN_FIELDS.body,
        connections: 1,
      };
      await server.startProfile();
      const lone = await measureLone(request, 50, 5);
      const profile = (await server.stopProfile()) as CpuProfile;
      expect(lone).toMatchObject({ requests: 50, failures: 0 });
      expect(lone.p50).toBeGreaterThan(0);
      expect(lone.p99).toBeGreaterThanOrEqual(lone.p50);
      expect(splitByStage(profile).totalMicros + splitByStage(profile).idleMicros).toBeGreaterThan(0);
      const memory = await server.memory();
      expect(memory.mainThreadCpuMicros).toBeGreaterThan(0);
      expect(memory.mainThreadCpuMicros).toBeLessThanOrEqual(memory.cpuMicros);
    } finally {
      await server.stop();
    }
  });

  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('refuses to load anything but loopback', async () => {
    await expect(
      measureLoad(
        { url: 'http://192.0.2.1/', headers: {}, body: '', connections: 1 },
        { seconds: 1, warmupSeconds: 0 },
      ),
    ).rejects.toThrow(/loopback/);
  });

  it('builds a 100 KB PNG upload that starts with the PNG signature', () => {
    const upload = pngUpload();
    expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.body.length).toBeGreaterThan(100 * 1024);
    expect(upload.body.length).toBeLessThan(110 * 1024);
    expect(upload.body.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  });

  it('summarises a CPU profile by package and by function', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2] },
        {
          id: 2,
          callFrame: { functionName: 'handle', url: 'file:///app/gateway/dist/routes/send.js', lineNumber: 9 },
          children: [3],
        },
        {
          id: 3,
          callFrame: { functionName: 'query', url: 'file:///app/node_modules/pg/lib/client.js', lineNumber: 1 },
        },
      ],
      samples: [2, 3, 3, 3],
      timeDeltas: [1000, 1000, 1000, 1000],
    };
    const summary = summarise(profile);
    expect(summary.totalMs).toBe(4);
    expect(summary.byPackage[0]).toMatchObject({ name: 'pg', ms: 3 });
    expect(summary.byTotal.find((row) => row.name.startsWith('handle'))?.ms).toBe(4);
    expect(packageOf('file:///x/node_modules/@mikro-orm/core/EntityManager.js', 'f')).toBe('@mikro-orm/core');
  });

  it('times the fixed work of a plain submission: the token checks, a receipt and an access line', async () => {
    const costs = await measureFixedCosts(0.2);
    const { tokenCheckMicros, firstTokenCheckMicros, receiptMicros, accessLineMicros } = costs;
    for (const micros of [tokenCheckMicros, firstTokenCheckMicros, receiptMicros, accessLineMicros]) {
      expect(Number.isFinite(micros)).toBe(true);
      expect(micros).toBeGreaterThan(0);
    }
    // Which is faster is the bench's to show, not a timed test's: under CI's load the remembered
    // check once read slower than the first. That it skips the HMAC and AES-GCM is the gateway's test.
  });
});
