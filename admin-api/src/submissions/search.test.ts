// Search and filter of a form's submissions through the GraphQL API, on the database under test: the
// text query (values only, any depth, case, accents, HTML escapes, LIKE wildcards), the creation
// bounds, hasFiles, totalCount and countUpTo of the filtered set, keyset paging inside it, and bad input.
import { jest } from '@jest/globals';
import { SubmissionSchema, type Form, type Site } from '@intake/shared/entities';
import { searchIndexed, testDriverName } from '@intake/shared/test';
import { makeForm, makeSite, makeSubmission, sampleFile } from '../test/factories.js';
import { codes, startTestAdmin, type GraphQLResult, type TestAdmin } from '../test/harness.js';

jest.setTimeout(30_000);

const PAGE = `query($formId: ID!, $first: Int, $after: String, $spam: Boolean, $filter: SubmissionFilterInput) {
  submissions(formId: $formId, first: $first, after: $after, spam: $spam, filter: $filter) {
    totalCount countUpTo { count more } upToTwo: countUpTo(limit: 2) { count more }
    edges { cursor node { id } } pageInfo { hasNextPage endCursor }
  }
}`;

interface Connection {
  totalCount: number;
  countUpTo: { count: number; more: boolean };
  upToTwo: { count: number; more: boolean };
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const BASE = Date.UTC(2026, 10, 1, 12, 0, 0);
const at = (minutes: number) => new Date(BASE + minutes * 60_000);

describe(`submission search on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  let site: Site;
  let form: Form;
  /** Submission ids by a short name. */
  const ids: Record<string, string> = {};

  const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) =>
    admin.gql<T>(query, variables, token);
  const list = (variables: Record<string, unknown>) =>
    gql<{ submissions: Connection }>(PAGE, { formId: form.id, first: 100, ...variables });

  /** The ids (as names) and totalCount a filter gives, names sorted. */
  async function found(filter: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const result = await list({ filter, ...extra });
    expect(result.errors).toBeUndefined();
    const connection = result.data!.submissions;
    const byId = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    const names = connection.edges.map((edge) => byId.get(edge.node.id) ?? edge.node.id).sort();
    expect(connection.totalCount).toBe(names.length);
    expect(connection.countUpTo).toEqual({ count: names.length, more: false });
    expect(connection.upToTwo).toEqual({ count: Math.min(names.length, 2), more: names.length > 2 });
    return names;
  }

  async function add(name: string, data: Record<string, unknown>, minutes: number, withFile = false, target?: Form) {
    const { submission } = await makeSubmission(admin.services, target ?? form, {
      data,
      createdAt: at(minutes),
      files: withFile ? [sampleFile({ field: 'doc', name: `${name}.txt` })] : [],
    });
    ids[name] = submission.id;
    return submission.id;
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
    ({ site } = await makeSite(admin.services));
    form = await makeForm(admin.services, site);
    // Values as the gateway stores them: sanitised text, `&`, `<`, `>` and U+00A0 HTML-escaped.
    await add('accented', { name: 'Élodie Dupont', message: 'Bonjour' }, 0, true);
    await add('upper', { name: 'ELODIE MARTIN', message: 'Salut' }, 1);
    await add(
      'nested',
      { contact: { city: 'Zürich', phones: ['+41 44 000'] }, tags: ['café', { label: 'Crème brûlée' }] },
      2,
    );
    await add('ampersand', { company: 'Tom &amp; Jerry', note: 'a &lt; b &amp;&amp; c &gt; d' }, 3, true);
    await add('literal', { note: '100% sure', code: 'a_b', path: 'C:\\temp' }, 4);
    await add('lookalike', { note: '1000 sure', code: 'axb', path: 'C:temp' }, 5);
    await add('key only', { elodie: 'value', city: 'Bern' }, 6);
    await add('number', { amount: 123456, ok: true }, 7);
    await add('escaped text', { said: 'typed &amp;lt; literally' }, 8);
    const spamId = await add('spam', { name: 'Élodie Spam' }, 9);
    await admin.services.db.em
      .fork()
      .nativeUpdate(SubmissionSchema, { id: spamId }, { spam: true, spamReason: 'links' });
    const other = await makeForm(admin.services, site);
    await add('other form', { name: 'Élodie Elsewhere' }, 10, false, other);
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('finds a value whatever its case and accents, in either direction', async () => {
    for (const query of ['elodie', 'ELODIE', 'Élodie', 'éLoDiE', '  elodie  ']) {
      expect({ query, names: await found({ query }) }).toEqual({ query, names: ['accented', 'upper'] });
    }
    expect(await found({ query: 'creme brulee' })).toEqual(['nested']);
    expect(await found({ query: 'ZURICH' })).toEqual(['nested']);
    expect(await found({ query: 'dupont' })).toEqual(['accented']);
  });

  it('matches values at any depth of objects and arrays, numbers too, but never a key', async () => {
    expect(await found({ query: '+41 44' })).toEqual(['nested']);
    expect(await found({ query: 'café' })).toEqual(['nested']);
    expect(await found({ query: '23456' })).toEqual(['number']);
    // `elodie` is a key of "key only": the two matches are values elsewhere.
    expect(await found({ query: 'elodie' })).not.toContain('key only');
    expect(await found({ query: 'city' })).toEqual([]);
    // One value, not text spanning two values.
    expect(await found({ query: 'dupont bonjour' })).toEqual([]);
  });

  it('matches the text as typed, not its stored HTML escapes', async () => {
    expect(await found({ query: 'Tom & Jerry' })).toEqual(['ampersand']);
    expect(await found({ query: 'a < b && c > d' })).toEqual(['ampersand']);
    expect(await found({ query: 'amp;' })).toEqual([]);
    // `&amp;lt;` was a typed `&lt;`: decoded once.
    expect(await found({ query: 'typed &lt;' })).toEqual(['escaped text']);
    expect(await found({ query: 'typed <' })).toEqual([]);
  });

  it('takes %, _ and \\ in the query literally', async () => {
    expect(await found({ query: '0% sure' })).toEqual(['literal']);
    expect(await found({ query: 'a_b' })).toEqual(['literal']);
    expect(await found({ query: 'C:\\temp' })).toEqual(['literal']);
    expect(await found({ query: '%%%' })).toEqual([]);
    expect(await found({ query: '___' })).toEqual([]);
  });

  it('bounds the creation time: createdAfter inclusive, createdBefore exclusive', async () => {
    expect(await found({ createdAfter: at(7).toISOString() })).toEqual(['escaped text', 'number']);
    expect(await found({ createdBefore: at(1).toISOString() })).toEqual(['accented']);
    expect(await found({ createdAfter: at(1).toISOString(), createdBefore: at(3).toISOString() })).toEqual([
      'nested',
      'upper',
    ]);
    // The same instants written with an offset, and a bare date (00:00 UTC).
    expect(await found({ createdAfter: '2026-11-01T13:07:00+01:00' })).toEqual(['escaped text', 'number']);
    expect(await found({ createdAfter: '2026-11-02' })).toEqual([]);
    expect(await found({ createdBefore: '2026-11-02', query: 'elodie' })).toEqual(['accented', 'upper']);
    expect(await found({ createdAfter: at(5).toISOString(), createdBefore: at(5).toISOString() })).toEqual([]);
  });

  it("bounds a text search by the creation time its search row carries, kept equal to the submission's", async () => {
    const datedForm = await makeForm(admin.services, site);
    const make = async (minutes: number, name: string) =>
      (await makeSubmission(admin.services, datedForm, { createdAt: at(minutes), data: { name } })).submission.id;
    const inside = await make(200, 'Rosalind Franklin');
    const earlier = await make(100, 'Rosalind Elion');
    const bounded = { query: 'rosalind', createdAfter: at(150).toISOString(), createdBefore: at(250).toISOString() };
    const matches = async (filter: Record<string, unknown>) => {
      const result = await gql<{ submissions: Connection }>(PAGE, { formId: datedForm.id, first: 10, filter });
      expect(result.errors).toBeUndefined();
      const ids = result.data!.submissions.edges.map((edge) => edge.node.id);
      expect(result.data!.submissions.totalCount).toBe(ids.length);
      return ids.sort();
    };
    const em = admin.services.db.em.fork();
    const searchDates = async () =>
      em.execute<{ id: string; same: boolean }[]>(
        `select s.id, ss.created_at = s.created_at as same from submission_search ss
          join submissions s on s.id = ss.submission_id where ss.form_id = ? order by s.id`,
        [datedForm.id],
      );
    // The indexer copies each submission's creation time.
    expect((await searchDates()).every((row) => row.same)).toBe(true);
    expect(await matches(bounded)).toEqual([inside]);

    // The bounds are read on the search row too: one dated outside them is not found by text and
    // dates, though its submission is inside (found by text alone).
    await em.execute('update submission_search set created_at = ? where submission_id = ?', [at(100), inside]);
    expect(await matches(bounded)).toEqual([]);
    expect(await matches({ query: 'rosalind' })).toEqual([inside, earlier].sort());

    // A change of the data (an erasure) rewrites the search row with the submission's date.
    await em.execute('update submissions set data = ? where id = ?', [
      JSON.stringify({ name: 'Rosalind [erased]' }),
      inside,
    ]);
    expect(await matches(bounded)).toEqual([inside]);
    // A change of the creation time is followed at once.
    await em.execute('update submissions set created_at = ? where id = ?', [at(210), earlier]);
    expect((await searchDates()).every((row) => row.same)).toBe(true);
    expect(await matches(bounded)).toEqual([inside, earlier].sort());
  });

  it('filters on files, alone and with the other parts', async () => {
    expect(await found({ hasFiles: true })).toEqual(['accented', 'ampersand']);
    expect((await found({ hasFiles: false })).length).toBe(7);
    expect(await found({ hasFiles: false, query: 'elodie' })).toEqual(['upper']);
    expect(await found({ hasFiles: null, query: 'elodie' })).toEqual(['accented', 'upper']);
  });

  it('keeps the Spam view and other forms apart', async () => {
    expect(await found({ query: 'elodie' }, { spam: true })).toEqual(['spam']);
    expect(await found({}, { spam: true })).toEqual(['spam']);
    expect((await found({})).length).toBe(9);
    expect((await found({ query: '' })).length).toBe(9);
  });

  it('pages through a filtered set with the same cursors, totalCount the filtered count on every page', async () => {
    const pagingForm = await makeForm(admin.services, site);
    const expected: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const { submission } = await makeSubmission(admin.services, pagingForm, {
        // Two share a timestamp: ties are broken by id inside the filter too.
        createdAt: at(100 + (index === 5 ? 4 : index)),
        data: { subject: index % 3 === 0 ? 'Other topic' : `Question n°${index} about Öl` },
      });
      if (index % 3 !== 0) {
        expected.push(submission.id);
      }
    }
    const seen: string[] = [];
    let after: string | null = null;
    for (let round = 0; round < 10; round += 1) {
      const result: GraphQLResult<{ submissions: Connection }> = await gql<{ submissions: Connection }>(PAGE, {
        formId: pagingForm.id,
        first: 3,
        after,
        filter: { query: 'about ol' },
      });
      expect(result.errors).toBeUndefined();
      const connection: Connection = result.data!.submissions;
      expect(connection.totalCount).toBe(8);
      expect([connection.countUpTo, connection.upToTwo]).toEqual([
        { count: 8, more: false },
        { count: 2, more: true },
      ]);
      seen.push(...connection.edges.map((edge) => edge.node.id));
      if (!connection.pageInfo.hasNextPage) {
        break;
      }
      after = connection.pageInfo.endCursor;
    }
    const rows = await admin.services.db.em.fork().find(SubmissionSchema, { id: { $in: expected } });
    const newestFirst = rows
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id > a.id ? 1 : -1))
      .map((row) => row.id);
    expect(seen).toEqual(newestFirst);
  });

  it('refuses a bad filter with BAD_USER_INPUT naming the field, and a short or long query', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ query: 'ab' }, 'filter.query'],
      [{ query: 'x'.repeat(201) }, 'filter.query'],
      [{ query: 'abc\u0000def' }, 'filter.query'],
      [{ createdAfter: 'yesterday' }, 'filter.createdAfter'],
      [{ createdAfter: '2026-02-30' }, 'filter.createdAfter'],
      [{ createdAfter: '2026-11-24T10:00:00' }, 'filter.createdAfter'],
      [{ createdBefore: '2026-11-24T24:00:00Z' }, 'filter.createdBefore'],
      [{ createdBefore: '1700000000000' }, 'filter.createdBefore'],
    ];
    for (const [filter, field] of cases) {
      const result = await list({ filter });
      expect({ filter, codes: codes(result), field: result.errors?.[0]?.extensions?.field }).toEqual({
        filter,
        codes: ['BAD_USER_INPUT'],
        field,
      });
      expect(result.data?.submissions ?? null).toBeNull();
    }
    // Wrong GraphQL types are refused by validation, before the resolver.
    const typed = await list({ filter: { hasFiles: 'yes' } });
    expect(codes(typed)).toEqual(['BAD_USER_INPUT']);
  });

  it('counts up to a limit of 1 to 10,000, 1,000 when none is given', async () => {
    const COUNT_UP_TO = `query($formId: ID!, $limit: Int) {
      submissions(formId: $formId, first: 0) { countUpTo(limit: $limit) { count more } }
    }`;
    const countUpTo = (limit: number | null) => gql(COUNT_UP_TO, { formId: form.id, limit });
    const total = (await found({})).length;
    expect((await countUpTo(null)).data?.submissions.countUpTo).toEqual({ count: total, more: false });
    expect((await countUpTo(1)).data?.submissions.countUpTo).toEqual({ count: 1, more: true });
    expect((await countUpTo(total)).data?.submissions.countUpTo).toEqual({ count: total, more: false });
    expect((await countUpTo(total - 1)).data?.submissions.countUpTo).toEqual({ count: total - 1, more: true });
    expect((await countUpTo(10_000)).data?.submissions.countUpTo).toEqual({ count: total, more: false });
    for (const limit of [0, -1, 10_001]) {
      const refused = await countUpTo(limit);
      expect({ limit, codes: codes(refused), field: refused.errors?.[0]?.extensions?.field }).toEqual({
        limit,
        codes: ['BAD_USER_INPUT'],
        field: 'limit',
      });
    }
  });

  it('does not find a submission by text until it is indexed, and says the form is indexing meanwhile', async () => {
    const INDEXING = `query($formId: ID!, $filter: SubmissionFilterInput) {
      submissions(formId: $formId, filter: $filter) { totalCount searchIndexing edges { node { id } } }
    }`;
    const view = async () => {
      const result = await gql<{ submissions: { totalCount: number; searchIndexing: boolean } }>(INDEXING, {
        formId: form.id,
        filter: { query: 'hedy lamarr' },
      });
      expect(result.errors).toBeUndefined();
      return result.data!.submissions;
    };
    expect(await view()).toMatchObject({ totalCount: 0, searchIndexing: false });
    const { submission } = await makeSubmission(admin.services, form, {
      data: { name: 'Hedy Lamarr' },
      createdAt: at(11),
      indexSearch: false,
    });
    expect(await view()).toMatchObject({ totalCount: 0, searchIndexing: true });
    await searchIndexed(admin.services.db, form.id);
    expect(await view()).toEqual({ totalCount: 1, searchIndexing: false, edges: [{ node: { id: submission.id } }] });
  });
});
