// Erasure on request through the admin API: the value is found wherever it is stored (any site or
// form, deleted ones and spam included; nested and in arrays; an e-mail address in any case, a phone
// number with any spacing), and erasing leaves no row, object, delivery or attempt holding it.
import { jest } from '@jest/globals';
import { SiteSchema } from '@intake/shared/entities';
import { hasStoredObject, makeStoredSubmission, testDriverName } from '@intake/shared/test';
import { makeForm, makeSite } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(30_000);

const FIND = `query($value: String!) {
  erasureCandidates(value: $value) {
    id createdAt spam siteId siteName siteDeleted formId formName formDeleted matchingFields
  }
}`;
const ERASE = `mutation($ids: [ID!]!) {
  eraseSubmissions(ids: $ids) { erasedIds notFoundIds fileCount deliveryCount }
}`;

// The tables a submitted value can reach, each row as text.
const TABLES = ['submissions', 'stored_files', 'deliveries', 'delivery_attempts'] as const;

describe(`erasure on request on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) =>
    admin.gql<T>(query, variables, token);
  const ids = (result: { data?: Record<string, any> | null }): string[] =>
    (result.data?.erasureCandidates ?? []).map((candidate: { id: string }) => candidate.id).sort();

  /** Rows of the tables holding `needle` (case-insensitively), except those of `except` submissions. */
  async function rowsHolding(needle: string, except: readonly string[] = []): Promise<Record<string, number>> {
    const em = admin.services.db.em.fork();
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const owner =
        table === 'submissions'
          ? 't."id"'
          : table === 'delivery_attempts'
            ? '(select d."submission_id" from "deliveries" d where d."id" = t."delivery_id")'
            : 't."submission_id"';
      const exclusion = except.length > 0 ? ` and ${owner} not in (${except.map(() => '?').join(', ')})` : '';
      const [row] = await em.execute<{ n: string | number }[]>(
        `select count(*) as "n" from "${table}" t where position(lower(?) in lower(t::text)) > 0${exclusion}`,
        [needle, ...except],
        'all',
      );
      counts[table] = Number(row?.n);
    }
    return counts;
  }
  const NONE = { submissions: 0, stored_files: 0, deliveries: 0, delivery_attempts: 0 };

  // Migrating a fresh database and hashing the password take long on a busy machine.
  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
  }, 90_000);

  afterAll(async () => {
    await admin?.close();
  });

  it('finds an e-mail address in any case, nested, in arrays, across sites, and erases everything holding it', async () => {
    const { site: shop } = await makeSite(admin.services, { name: 'Shop' });
    const { site: blog } = await makeSite(admin.services, { name: 'Blog' });
    const contact = await makeForm(admin.services, shop, { name: 'Contact' });
    const oldForm = await makeForm(admin.services, blog, { name: 'Old survey', deletedAt: new Date() });
    await admin.services.db.em.fork().nativeUpdate(SiteSchema, { id: blog.id }, { deletedAt: new Date() });
    const services = admin.services;
    const value = 'ada.lovelace@example.com';

    const direct = await makeStoredSubmission(services, contact.id, {
      data: { email: '  Ada.Lovelace@Example.COM ', message: 'hello' },
      delivered: true,
      echo: value,
    });
    const nested = await makeStoredSubmission(services, oldForm.id, {
      data: { people: [{ name: 'A', contacts: { emails: ['x@example.org', 'ADA.LOVELACE@example.com'] } }] },
      spam: true,
    });
    const twoFields = await makeStoredSubmission(services, contact.id, {
      data: { email: value, reply_to: value, message: 'again' },
    });
    // Not equal, so not matched: a longer address, the address inside a sentence.
    const decoys = await Promise.all([
      makeStoredSubmission(services, contact.id, { data: { email: `${value}.au` } }),
      makeStoredSubmission(services, contact.id, { data: { message: `write to ${value} please` } }),
    ]);
    const found = await gql(FIND, { value: ` ${value.toUpperCase()} ` });
    expect(found.errors).toBeUndefined();
    const wanted = [direct.id, nested.id, twoFields.id];
    expect(ids(found)).toEqual([...wanted].sort());
    const byId = new Map(found.data?.erasureCandidates.map((candidate: { id: string }) => [candidate.id, candidate]));
    expect(byId.get(nested.id)).toMatchObject({
      spam: true,
      siteName: 'Blog',
      siteDeleted: true,
      formName: 'Old survey',
      formDeleted: true,
      matchingFields: ['people'],
    });
    expect(byId.get(twoFields.id)).toMatchObject({ siteName: 'Shop', matchingFields: ['email', 'reply_to'] });
    // The preview shows where, not what: no other submitted value.
    expect(JSON.stringify(found.data)).not.toContain('hello');

    // The scan sees the value before: the submissions, and the receiver's answer echoing it.
    expect(
      await rowsHolding(
        value,
        decoys.map((decoy) => decoy.id),
      ),
    ).toEqual({
      submissions: 3,
      stored_files: 0,
      deliveries: 0,
      delivery_attempts: 1,
    });
    const erased = await gql(ERASE, { ids: wanted });
    expect(erased.errors).toBeUndefined();
    expect(erased.data?.eraseSubmissions).toEqual({
      erasedIds: wanted,
      notFoundIds: [],
      fileCount: 3,
      deliveryCount: 3,
    });
    expect(
      await rowsHolding(
        value,
        decoys.map((decoy) => decoy.id),
      ),
    ).toEqual(NONE);
    for (const made of [direct, nested, twoFields]) {
      expect(await hasStoredObject(services, made.storageKey)).toBe(false);
    }
    for (const decoy of decoys) {
      expect(await hasStoredObject(services, decoy.storageKey)).toBe(true);
    }
    expect(ids(await gql(FIND, { value }))).toEqual([]);
    // The erasure is audited with ids and counts; the value searched for is nowhere in the log.
    const em = admin.services.db.em.fork();
    const [audited] = await em.execute<{ n: string | number }[]>(
      `select count(*) as "n" from "audit_log" where "action" = 'eraseSubmissions'`,
      [],
      'all',
    );
    expect(Number(audited?.n)).toBe(1);
    const [leaked] = await em.execute<{ n: string | number }[]>(
      `select count(*) as "n" from "audit_log" t where position(lower(?) in lower(t::text)) > 0`,
      [value],
      'all',
    );
    expect(Number(leaked?.n)).toBe(0);

    // Idempotent: erasing again is not an error, the ids are listed as not found.
    const again = await gql(ERASE, { ids: [direct.id] });
    expect(again.data?.eraseSubmissions).toEqual({
      erasedIds: [],
      notFoundIds: [direct.id],
      fileCount: 0,
      deliveryCount: 0,
    });
  });

  it('finds a phone number whatever its spacing, also as a JSON number, and text as it is stored', async () => {
    const { site } = await makeSite(admin.services);
    const form = await makeForm(admin.services, site);
    const services = admin.services;
    const spaced = await makeStoredSubmission(services, form.id, { data: { phone: '+49 30 1234-567' } });
    const bare = await makeStoredSubmission(services, form.id, { data: { contact: { tel: '+49301234567' } } });
    const numeric = await makeStoredSubmission(services, form.id, { data: { tel: 49301234567 } });
    const other = await makeStoredSubmission(services, form.id, { data: { phone: '+49 30 1234-568' } });
    expect(ids(await gql(FIND, { value: '+49 (30) 123 45 67' }))).toEqual([spaced.id, bare.id].sort());
    expect(ids(await gql(FIND, { value: '4930 1234 567' }))).toEqual([numeric.id]);
    expect(ids(await gql(FIND, { value: '+49 30 1234 568' }))).toEqual([other.id]);

    // Stored HTML-escaped (`&amp;`): found as the person typed it.
    const ampersand = await makeStoredSubmission(services, form.id, { data: { email: 'tom&amp;jerry@example.com' } });
    expect(ids(await gql(FIND, { value: 'Tom&Jerry@example.com' }))).toEqual([ampersand.id]);

    const erased = await gql(ERASE, { ids: [spaced.id, bare.id, spaced.id] });
    expect(erased.data?.eraseSubmissions).toMatchObject({ erasedIds: [spaced.id, bare.id], notFoundIds: [] });
    expect(await rowsHolding('1234-567')).toEqual(NONE);
    expect(ids(await gql(FIND, { value: '+49 (30) 123 45 67' }))).toEqual([]);
    expect(ids(await gql(FIND, { value: '+49 30 1234 568' }))).toEqual([other.id]);
  });

  it('refuses bad input with BAD_USER_INPUT, without echoing the value, and erases nothing', async () => {
    const { site } = await makeSite(admin.services);
    const form = await makeForm(admin.services, site);
    const kept = await makeStoredSubmission(admin.services, form.id, { data: { name: 'ab' } });
    const tooShort = await gql(FIND, { value: ' ab ' });
    expect(codes(tooShort)).toEqual(['BAD_USER_INPUT']);
    expect(codes(await gql(FIND, { value: 'x'.repeat(1001) }))).toEqual(['BAD_USER_INPUT']);
    const secretish = 'not-a-uuid-but-personal@example.com';
    const badId = await gql(ERASE, { ids: [kept.id, secretish] });
    expect(codes(badId)).toEqual(['BAD_USER_INPUT']);
    expect(JSON.stringify(badId)).not.toContain(secretish);
    expect(codes(await gql(ERASE, { ids: [] }))).toEqual(['BAD_USER_INPUT']);
    expect(await hasStoredObject(admin.services, kept.storageKey)).toBe(true);
    expect(codes(await admin.gql(FIND, { value: 'someone@example.com' }))).toEqual(['UNAUTHENTICATED']);
  });
});
