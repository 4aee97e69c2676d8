// The console's refusal statistics: real refusals through a listening gateway land in
// "refusal_counts" per UTC day and code after a flush, with nothing of the refused request; a flush
// the database does not take keeps its counts; gateways add up; old days are deleted.
import { jest } from '@jest/globals';
import { addRefusalCounts, lastUtcDays, readRefusalCounts, utcDay } from '@intake/shared/statistics';
import {
  createOutageDatabase,
  createTestServices,
  describeOnPostgres,
  makeForm,
  makeSite,
  testDriverName,
} from '@intake/shared/test';
import { startGateway, type RunningGateway } from '../index.js';
import { createRefusalTally } from './refusal-tally.js';
import { send, type TestServices } from '../test/harness.js';

jest.setTimeout(60_000);

const WRONG_KEY = 'wrong-key-9f3a7c1e5b';
const BAD_TOKEN = 'not.a-token.7d2e4b9a';
const SECRET_VALUE = 'value-that-must-not-be-stored-4c8e1f';

let services: TestServices;
let gateway: RunningGateway;

beforeAll(async () => {
  services = await createTestServices();
  gateway = await startGateway(services);
});

afterAll(async () => {
  await gateway?.close();
  await services?.close();
});

beforeEach(async () => {
  await gateway.refusals.flush();
  await services.db.em.fork().execute('delete from "refusal_counts"', [], 'run');
});

function totalPending(pending: ReadonlyMap<string, number>): number {
  return [...pending.values()].reduce((sum, count) => sum + count, 0);
}

/** Refusals are counted once their answer is sent, a moment after the client has read it. */
async function eventuallyCounted(read: () => Promise<number>, total: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while ((await read()) < total && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(await read()).toBe(total);
}

/** For a tally whose flushes fail: everything it counted stays pending. */
const waitForPending = (tally: Pick<RunningGateway['refusals'], 'pending'>, total: number) =>
  eventuallyCounted(async () => totalPending(tally.pending()), total);

/** Counted today by these gateways, written or not (their 5 s timers may flush at any moment). */
const waitForCounted = (tallies: Pick<RunningGateway['refusals'], 'pending'>[], total: number) =>
  eventuallyCounted(async () => {
    const written = Object.values(await todaysCounts()).reduce((sum, count) => sum + count, 0);
    return tallies.reduce((sum, tally) => sum + totalPending(tally.pending()), written);
  }, total);

async function todaysCounts(): Promise<Record<string, number>> {
  const today = utcDay(new Date());
  const rows = await readRefusalCounts(services.db.em.fork(), today);
  return Object.fromEntries(rows.filter((row) => row.day === today).map((row) => [row.code, row.count]));
}

async function siteAndForm() {
  const { site, token } = await makeSite(services);
  const form = await makeForm(services, site);
  return { token, form };
}

describe(`refusal statistics on ${testDriverName()}`, () => {
  it('counts real refusals per code after a flush, and stores nothing of the requests', async () => {
    const { token, form } = await siteAndForm();
    const { apiKey } = services.config;
    const answers = await Promise.all([
      send(gateway.url, form.code, { apiKey: null, token, json: { secret: SECRET_VALUE } }),
      send(gateway.url, form.code, { apiKey: null, token, json: { secret: SECRET_VALUE } }),
      send(gateway.url, form.code, { apiKey: WRONG_KEY, token, json: { secret: SECRET_VALUE } }),
      send(gateway.url, form.code, { apiKey, token: BAD_TOKEN, json: { secret: SECRET_VALUE } }),
      send(gateway.url, form.code, { apiKey, token, json: `{"secret": "${SECRET_VALUE}"` }),
      send(gateway.url, form.code, { apiKey, token, json: { secret: SECRET_VALUE } }),
      fetch(`${gateway.url}/no/such/route`, { method: 'POST' }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 403, 403, 400, 201, 404]);
    await Promise.all(answers.map((answer) => answer.arrayBuffer()));

    // The 201 and the unknown route are not refusals of the intake route.
    await waitForCounted([gateway.refusals], 5);
    expect(await gateway.refusals.flush()).toBe(true);
    expect(gateway.refusals.pending().size).toBe(0);

    expect(await todaysCounts()).toEqual({ api_key_missing: 2, api_key_invalid: 1, token_invalid: 1, body_invalid: 1 });
    const stored = await services.db.em
      .fork()
      .execute<Record<string, unknown>[]>('select * from "refusal_counts"', [], 'all');
    expect(Object.keys(stored[0]!).sort()).toEqual(['code', 'count', 'day']);
    const everything = JSON.stringify(stored);
    for (const secret of [WRONG_KEY, BAD_TOKEN, SECRET_VALUE, apiKey, token, form.code, '127.0.0.1']) {
      expect(everything).not.toContain(secret);
    }
  });

  it('adds the counts of two gateways up in one row', async () => {
    const { token, form } = await siteAndForm();
    const second = await startGateway(services);
    try {
      for (const target of [gateway, second, gateway]) {
        const answer = await send(target.url, form.code, { apiKey: WRONG_KEY, token, json: {} });
        expect(answer.status).toBe(403);
        await answer.arrayBuffer();
      }
      await waitForCounted([gateway.refusals, second.refusals], 3);
      // Each gateway adds its own count to the same row.
      await Promise.all([gateway.refusals.flush(), second.refusals.flush()]);
      expect(await todaysCounts()).toEqual({ api_key_invalid: 3 });
    } finally {
      await second.close();
    }
  });

  it('keeps the counts of a flush the database did not take, and writes them with the next', async () => {
    const { token, form } = await siteAndForm();
    const em = services.db.em.fork();
    // A real failing statement: the table is away, as it is for a gateway whose database is down.
    await em.execute('alter table "refusal_counts" rename to "refusal_counts_away"', [], 'run');
    try {
      const answer = await send(gateway.url, form.code, { apiKey: null, token, json: {} });
      expect(answer.status).toBe(401);
      await answer.arrayBuffer();
      await waitForPending(gateway.refusals, 1);
      expect(await gateway.refusals.flush()).toBe(false);
      expect(await gateway.refusals.flush()).toBe(false);
      expect(totalPending(gateway.refusals.pending())).toBe(1);
    } finally {
      await em.execute('alter table "refusal_counts_away" rename to "refusal_counts"', [], 'run');
    }
    const again = await send(gateway.url, form.code, { apiKey: null, token, json: {} });
    await again.arrayBuffer();
    await waitForCounted([gateway.refusals], 2);
    expect(await gateway.refusals.flush()).toBe(true);
    expect(await todaysCounts()).toEqual({ api_key_missing: 2 });
  });

  it('writes what is left when the gateway stops', async () => {
    const { form } = await siteAndForm();
    const stopping = await startGateway(services);
    const answer = await send(stopping.url, form.code, { apiKey: services.config.apiKey, token: null, json: {} });
    expect(answer.status).toBe(401);
    await answer.arrayBuffer();
    await waitForCounted([stopping.refusals], 1);
    await stopping.close();
    expect(await todaysCounts()).toEqual({ token_missing: 1 });
  });

  it('deletes days older than 90 and keeps the 90th', async () => {
    const now = new Date();
    const days = lastUtcDays(91, now);
    await addRefusalCounts(services.db, [
      { day: days[0]!, code: 'token_invalid', count: 7 },
      { day: days[1]!, code: 'token_invalid', count: 5 },
    ]);
    const tally = createRefusalTally(services, { now: () => now });
    tally.record('rate_limited');
    expect(await tally.flush()).toBe(true);
    const rows = await readRefusalCounts(services.db.em.fork(), days[0]!);
    expect(rows).toEqual([
      { day: utcDay(now), code: 'rate_limited', count: 1 },
      { day: days[1]!, code: 'token_invalid', count: 5 },
    ]);
  });

  it('counts by the UTC day of the refusal', async () => {
    let clock = new Date('2026-03-01T23:59:59.900Z');
    const tally = createRefusalTally(services, { now: () => clock });
    tally.record('payload_too_large');
    clock = new Date('2026-03-02T00:00:00.100Z');
    tally.record('payload_too_large');
    tally.record('payload_too_large');
    expect(await tally.flush()).toBe(true);
    expect(await readRefusalCounts(services.db.em.fork(), '2026-03-01')).toEqual([
      { day: '2026-03-01', code: 'payload_too_large', count: 1 },
      { day: '2026-03-02', code: 'payload_too_large', count: 2 },
    ]);
  });
});

describeOnPostgres('refusal statistics while PostgreSQL refuses connections', (serverUrl) => {
  it('counts the 503s of the outage and writes them once the database is back', async () => {
    const outage = await createOutageDatabase(serverUrl);
    const outageGateway = await startGateway(outage.services);
    try {
      const { site, token } = await makeSite(outage.services);
      const form = await makeForm(outage.services, site);
      const submit = () =>
        send(outageGateway.url, form.code, { apiKey: outage.services.config.apiKey, token, json: {} });
      expect((await submit()).status).toBe(201);
      await outage.refuseConnections();
      try {
        await outage.terminateConnections();
        const refused = await submit();
        expect(refused.status).toBe(503);
        await refused.arrayBuffer();
        await waitForPending(outageGateway.refusals, 1);
        expect(await outageGateway.refusals.flush()).toBe(false);
        expect([...outageGateway.refusals.pending().keys()]).toEqual([`${utcDay(new Date())} service_unavailable`]);
      } finally {
        await outage.restore();
      }
      expect(await outageGateway.refusals.flush()).toBe(true);
      const rows = await readRefusalCounts(outage.services.db.em.fork(), utcDay(new Date()));
      expect(rows).toEqual([{ day: utcDay(new Date()), code: 'service_unavailable', count: 1 }]);
    } finally {
      await outageGateway.close();
      await outage.close();
    }
  });
});
