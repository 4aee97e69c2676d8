// 1. No loss under load: 5,000 JSON and 300 multipart submissions at concurrency 32 against a
// listening gateway on PostgreSQL. Every answer is 201, and afterwards the database holds exactly
// those submissions, each file whole (its stored bytes hash to its sha256), and nothing else.
import { elapsedMs, runPool } from './support/load.js';
import { describeOnPostgres } from './support/postgres.js';
import { startReliabilityGateway, type ReliabilityGateway } from './support/gateway.js';
import { sendJson, sendMultipart, tally, type Credentials } from './support/requests.js';
import { readStore } from './support/store.js';

const JSON_COUNT = 5000;
const MULTIPART_COUNT = 300;
const CONCURRENCY = 32;

describeOnPostgres('no loss under load', (serverUrl) => {
  let harness: ReliabilityGateway;

  beforeAll(async () => {
    harness = await startReliabilityGateway(serverUrl);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it(`${JSON_COUNT} JSON and ${MULTIPART_COUNT} multipart submissions at concurrency ${CONCURRENCY}: all 201, all stored whole, nothing else`, async () => {
    const credentials: Credentials = {
      url: harness.url,
      apiKey: harness.apiKey,
      token: harness.token,
      formCode: harness.form.code,
    };
    const total = JSON_COUNT + MULTIPART_COUNT;
    // Multipart requests spread evenly through the JSON ones, so both kinds overlap all along.
    const every = Math.floor(total / MULTIPART_COUNT);
    const isMultipart = (index: number) => index % every === 0 && index / every < MULTIPART_COUNT;

    const start = performance.now();
    const outcomes = await runPool(total, CONCURRENCY, (index) =>
      isMultipart(index) ? sendMultipart(credentials, `m${index}`) : sendJson(credentials, `j${index}`),
    );
    const took = elapsedMs(start);
    console.log(`load: ${total} submissions in ${took} ms (${Math.round((total * 1000) / took)}/s)`, tally(outcomes));

    expect(tally(outcomes)).toEqual({ 201: total });
    expect(outcomes.filter((outcome) => outcome.files.length > 0)).toHaveLength(MULTIPART_COUNT);

    const store = await readStore(harness.inspector, harness.services.config.dataDir);
    expect(store.submissions.size).toBe(total);
    expect(store.brokenFiles).toEqual([]);
    expect(store.orphanObjects).toEqual([]);
    expect(store.temporaryUploads).toEqual([]);
    const mismatches: string[] = [];
    for (const outcome of outcomes) {
      const stored = store.submissions.get(outcome.id!);
      const storedHashes = stored?.files.map((file) => file.sha256);
      const sentHashes = outcome.files.map((file) => file.sha256);
      if (
        stored?.data.seq !== outcome.seq ||
        JSON.stringify(storedHashes) !== JSON.stringify(sentHashes) ||
        JSON.stringify(outcome.answeredFiles?.map((file) => file.sha256) ?? []) !== JSON.stringify(sentHashes)
      ) {
        mismatches.push(outcome.seq);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
