// Group commit through HTTP: SUBMISSION_GROUP_MAX reaches the gateway's submission store, and
// concurrent submissions answered 201 share commits; set to 1, each has its own. Rows written by
// one transaction share its id (xmin), which is how the database itself shows the groups. On
// PostgreSQL groups form behind the write in flight; on PGlite, which runs on the gateway's thread,
// over one turn of the event loop (group-committer.ts).
import { makeForm, makeSite, testDriverName } from '@intake/shared/test';
import { send, startTestGateway } from '../test/harness.js';

const REQUESTS = 30;

async function commitsOf(env: Record<string, string>): Promise<number> {
  const harness = await startTestGateway(env);
  try {
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    const apiKey = harness.services.config.apiKey;
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, (_, index) =>
        send(harness.gateway.url, form.code, { apiKey, token, json: { name: `Ada ${index}` } }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 201));
    const ids = await Promise.all(responses.map(async (response) => ((await response.json()) as { id: string }).id));
    const rows = await harness.services.db.em
      .fork()
      .execute<{ xmin: string }[]>(
        `select xmin::text as "xmin" from "submissions" where "id" in (${ids.map(() => '?').join(', ')})`,
        ids,
      );
    expect(rows).toHaveLength(REQUESTS);
    return new Set(rows.map((row) => row.xmin)).size;
  } finally {
    await harness.close();
  }
}

describe(`group commit through the gateway on ${testDriverName()}`, () => {
  it('commits each submission alone with SUBMISSION_GROUP_MAX=1', async () => {
    expect(await commitsOf({ SUBMISSION_GROUP_MAX: '1' })).toBe(REQUESTS);
  });

  it('answers concurrent submissions 201 from fewer commits than requests', async () => {
    expect(await commitsOf({})).toBeLessThan(REQUESTS);
  });
});
