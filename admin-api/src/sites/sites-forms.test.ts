import { jest } from '@jest/globals';
import { FormSchema, SiteSchema, type Site } from '@intake/shared/entities';
import { DEFAULT_ALLOWED_MIME_TYPES } from '@intake/shared/mime-types';
import { verifySiteToken } from '@intake/shared/site-token';
import { testDriverName } from '@intake/shared/test';
import { getIntrospectionQuery } from 'graphql';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

const SITE_FIELDS = 'id name domain createdAt updatedAt';
const FORM_FIELDS = 'id siteId name code enabled allowedMimeTypes usesDefaultMimeTypes maxFileSize createdAt updatedAt';

interface SiteView {
  id: string;
  name: string;
  domain: string | null;
}

interface FormView {
  id: string;
  siteId: string;
  name: string;
  code: string;
  enabled: boolean;
  allowedMimeTypes: string[];
  usesDefaultMimeTypes: boolean;
  maxFileSize: number;
}

interface ApiView {
  siteId: string;
  token: string;
  forms: FormView[];
}

// Real servers and password hashing: slower than the default 5 s on a busy machine.
jest.setTimeout(30_000);

describe(`sites and forms on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;

  const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) =>
    admin.gql<T>(query, variables, token);

  /** Verifies a site token exactly as the gateway does, against the database. */
  function verify(siteToken: string) {
    const em = admin.services.db.em.fork();
    return verifySiteToken<Site>(admin.services.siteTokens, siteToken, (siteId) =>
      em.findOne(SiteSchema, { id: siteId }),
    );
  }

  async function createSite(name = 'Shop', domain: string | null = 'shop.example'): Promise<SiteView> {
    const result = await gql<{ createSite: SiteView }>(
      `mutation($input: CreateSiteInput!) { createSite(input: $input) { ${SITE_FIELDS} } }`,
      {
        input: { name, domain },
      },
    );
    expect(result.errors).toBeUndefined();
    return result.data!.createSite;
  }

  async function createForm(siteId: string, name = 'Contact'): Promise<FormView> {
    const result = await gql<{ createForm: FormView }>(
      `mutation($input: CreateFormInput!) { createForm(input: $input) { ${FORM_FIELDS} } }`,
      {
        input: { siteId, name },
      },
    );
    expect(result.errors).toBeUndefined();
    return result.data!.createForm;
  }

  async function apiView(siteId: string) {
    return gql<{ siteApiView: ApiView }>(
      `query($id: ID!) { siteApiView(siteId: $id) { siteId token forms { ${FORM_FIELDS} } } }`,
      { id: siteId },
    );
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
  }, 30_000);

  describe('sites', () => {
    it('creates, lists, reads and updates a site', async () => {
      const site = await createSite('  Main shop ', ' Shop.Example.COM ');
      expect(site).toEqual({
        id: expect.any(String),
        name: 'Main shop',
        domain: 'shop.example.com',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const noDomain = await createSite('No domain', null);
      expect(noDomain.domain).toBeNull();

      const listed = await gql<{ sites: SiteView[] }>(`{ sites { ${SITE_FIELDS} } }`);
      expect(listed.data?.sites.map((entry) => entry.id)).toEqual(expect.arrayContaining([site.id, noDomain.id]));
      const read = await gql<{ site: SiteView }>(`query($id: ID!) { site(id: $id) { ${SITE_FIELDS} } }`, {
        id: site.id,
      });
      expect(read.data?.site).toEqual(site);

      const update = `mutation($id: ID!, $input: UpdateSiteInput!) { updateSite(id: $id, input: $input) { ${SITE_FIELDS} } }`;
      const renamed = await gql<{ updateSite: SiteView }>(update, { id: site.id, input: { name: 'Renamed' } });
      expect(renamed.data?.updateSite).toMatchObject({ name: 'Renamed', domain: 'shop.example.com' });
      const moved = await gql<{ updateSite: SiteView }>(update, { id: site.id, input: { domain: 'bücher.example' } });
      expect(moved.data?.updateSite).toMatchObject({ name: 'Renamed', domain: 'xn--bcher-kva.example' });
      const cleared = await gql<{ updateSite: SiteView }>(update, { id: site.id, input: { domain: null } });
      expect(cleared.data?.updateSite).toMatchObject({ name: 'Renamed', domain: null });

      const unknown = await gql(update, { id: '00000000-0000-4000-8000-000000000000', input: { name: 'x' } });
      expect(codes(unknown)).toEqual(['NOT_FOUND']);
      expect(
        (await gql<{ site: null }>('{ site(id: "00000000-0000-4000-8000-000000000000") { id } }')).data?.site,
      ).toBeNull();
    });

    it('refuses bad input with BAD_USER_INPUT naming the field, and changes nothing', async () => {
      const create = `mutation($input: CreateSiteInput!) { createSite(input: $input) { id } }`;
      const cases: [Record<string, unknown>, string][] = [
        [{ name: '' }, 'input.name'],
        [{ name: '   ' }, 'input.name'],
        [{ name: 'x'.repeat(201) }, 'input.name'],
        [{ name: 'line\nbreak' }, 'input.name'],
        [{ name: 'ok', domain: 'http://x/y' }, 'input.domain'],
        [{ name: 'ok', domain: 'example.com:8080' }, 'input.domain'],
        [{ name: 'ok', domain: 'user@example.com' }, 'input.domain'],
        [{ name: 'ok', domain: 'exa mple.com' }, 'input.domain'],
        [{ name: 'ok', domain: '-bad.example' }, 'input.domain'],
        [{ name: 'ok', domain: '192.168.0.1' }, 'input.domain'],
        [{ name: 'ok', domain: `${'a'.repeat(64)}.example` }, 'input.domain'],
        [{ name: 'ok', domain: `${'abcdefghi.'.repeat(26)}com` }, 'input.domain'],
      ];
      const before = await admin.services.db.em.fork().count(SiteSchema);
      for (const [input, field] of cases) {
        const result = await gql(create, { input });
        expect({ input, codes: codes(result), field: result.errors?.[0]?.extensions?.field }).toEqual({
          input,
          codes: ['BAD_USER_INPUT'],
          field,
        });
        expect(result.errors?.[0]?.message.startsWith(field)).toBe(true);
      }
      expect(await admin.services.db.em.fork().count(SiteSchema)).toBe(before);

      const longest = await gql<{ createSite: { id: string } }>(create, {
        input: { name: 'x'.repeat(200), domain: 'localhost' },
      });
      expect(longest.errors).toBeUndefined();

      const site = await createSite();
      const update = `mutation($id: ID!, $input: UpdateSiteInput!) { updateSite(id: $id, input: $input) { name domain } }`;
      const partlyBad = await gql(update, { id: site.id, input: { name: 'Good name', domain: 'http://x/y' } });
      expect(codes(partlyBad)).toEqual(['BAD_USER_INPUT']);
      const unchanged = await gql<{ site: SiteView }>(`{ site(id: "${site.id}") { name domain } }`);
      expect(unchanged.data?.site).toEqual({ name: 'Shop', domain: 'shop.example' });
      expect(codes(await gql(update, { id: site.id, input: { name: null } }))).toEqual(['BAD_USER_INPUT']);

      for (const query of [
        '{ site(id: "nope") { id } }',
        '{ siteApiView(siteId: "1234") { token } }',
        '{ forms(siteId: "x") { id } }',
        'mutation { deleteSite(id: "zzz") }',
      ]) {
        const result = await gql(query);
        expect({ query, codes: codes(result) }).toEqual({ query, codes: ['BAD_USER_INPUT'] });
      }
    });

    it('issues site tokens that the gateway check accepts, any number of times', async () => {
      const site = await createSite();
      const form = await createForm(site.id);
      const first = await apiView(site.id);
      expect(first.errors).toBeUndefined();
      expect(first.data?.siteApiView).toEqual({ siteId: site.id, token: expect.any(String), forms: [form] });
      const second = await apiView(site.id);
      for (const view of [first, second]) {
        const verdict = await verify(view.data!.siteApiView.token);
        expect(verdict.ok && verdict.site.id).toBe(site.id);
      }
    });

    it('rotates the control code: the old token fails, the new one works', async () => {
      const site = await createSite();
      const old = (await apiView(site.id)).data!.siteApiView.token;
      const rotated = await gql<{ rotateSiteToken: ApiView }>(
        'mutation($id: ID!) { rotateSiteToken(siteId: $id) { siteId token forms { id } } }',
        { id: site.id },
      );
      expect(rotated.errors).toBeUndefined();
      const fresh = rotated.data!.rotateSiteToken.token;
      expect(fresh).not.toBe(old);
      expect(await verify(old)).toEqual({ ok: false, reason: 'rotated' });
      expect((await verify(fresh)).ok).toBe(true);
      expect((await verify((await apiView(site.id)).data!.siteApiView.token)).ok).toBe(true);
      expect(
        codes(await gql('mutation { rotateSiteToken(siteId: "00000000-0000-4000-8000-000000000000") { token } }')),
      ).toEqual(['NOT_FOUND']);
    });

    it('soft-deletes a site: hidden everywhere, tokens fail at once, its forms closed', async () => {
      const site = await createSite('Doomed');
      const form = await createForm(site.id);
      const siteToken = (await apiView(site.id)).data!.siteApiView.token;

      const deleted = await gql<{ deleteSite: boolean }>('mutation($id: ID!) { deleteSite(id: $id) }', { id: site.id });
      expect(deleted.data?.deleteSite).toBe(true);
      expect(await verify(siteToken)).toEqual({ ok: false, reason: 'deleted_site' });

      expect(
        (await gql<{ site: null }>('query($id: ID!) { site(id: $id) { id } }', { id: site.id })).data?.site,
      ).toBeNull();
      expect((await gql<{ sites: SiteView[] }>('{ sites { id } }')).data?.sites.map((entry) => entry.id)).not.toContain(
        site.id,
      );
      expect(codes(await apiView(site.id))).toEqual(['NOT_FOUND']);
      expect(codes(await gql('query($id: ID!) { forms(siteId: $id) { id } }', { id: site.id }))).toEqual(['NOT_FOUND']);
      expect(
        codes(
          await gql('mutation($id: ID!) { createForm(input: { siteId: $id, name: "x" }) { id } }', { id: site.id }),
        ),
      ).toEqual(['NOT_FOUND']);
      expect(
        codes(await gql('mutation($id: ID!) { updateSite(id: $id, input: { name: "x" }) { id } }', { id: site.id })),
      ).toEqual(['NOT_FOUND']);
      expect(
        codes(await gql('mutation($id: ID!) { rotateSiteToken(siteId: $id) { token } }', { id: site.id })),
      ).toEqual(['NOT_FOUND']);
      expect(
        (await gql<{ deleteSite: boolean }>('mutation($id: ID!) { deleteSite(id: $id) }', { id: site.id })).data
          ?.deleteSite,
      ).toBe(false);

      const row = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
      expect(row.deletedAt).toBeInstanceOf(Date);
    });
  });

  describe('forms', () => {
    it('creates a form with a random code, the default types and the global size limit', async () => {
      const site = await createSite();
      const form = await createForm(site.id, ' Newsletter ');
      expect(form).toEqual({
        id: expect.any(String),
        siteId: site.id,
        name: 'Newsletter',
        code: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
        enabled: true,
        allowedMimeTypes: [...DEFAULT_ALLOWED_MIME_TYPES],
        usesDefaultMimeTypes: true,
        maxFileSize: admin.services.config.limits.maxFileSize,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(DEFAULT_ALLOWED_MIME_TYPES).toHaveLength(12);
      const other = await createForm(site.id, 'Second');
      expect(other.code).not.toBe(form.code);
      const listed = await gql<{ forms: FormView[] }>(`query($id: ID!) { forms(siteId: $id) { id } }`, { id: site.id });
      expect(listed.data?.forms.map((entry) => entry.id)).toEqual([form.id, other.id]);
      expect(
        codes(
          await gql(
            'mutation { createForm(input: { siteId: "00000000-0000-4000-8000-000000000000", name: "x" }) { id } }',
          ),
        ),
      ).toEqual(['NOT_FOUND']);
      expect(codes(await gql(`mutation { createForm(input: { siteId: "${site.id}", name: "" }) { id } }`))).toEqual([
        'BAD_USER_INPUT',
      ]);
    });

    it('updates name, enabled, allowed types and size limit, validating each', async () => {
      const site = await createSite();
      const form = await createForm(site.id);
      const update = `mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { ${FORM_FIELDS} } }`;
      const max = admin.services.config.limits.maxFileSize;

      const changed = await gql<{ updateForm: FormView }>(update, {
        id: form.id,
        input: {
          name: 'Quotes',
          enabled: false,
          allowedMimeTypes: ['image/PNG', 'application/pdf', 'image/png'],
          maxFileSize: 1000,
        },
      });
      expect(changed.errors).toBeUndefined();
      expect(changed.data?.updateForm).toMatchObject({
        name: 'Quotes',
        enabled: false,
        allowedMimeTypes: ['image/png', 'application/pdf'],
        usesDefaultMimeTypes: false,
        maxFileSize: 1000,
        code: form.code,
      });
      const onlyName = await gql<{ updateForm: FormView }>(update, { id: form.id, input: { name: 'Quotes 2' } });
      expect(onlyName.data?.updateForm).toMatchObject({
        name: 'Quotes 2',
        enabled: false,
        maxFileSize: 1000,
        allowedMimeTypes: ['image/png', 'application/pdf'],
      });

      const bad: [Record<string, unknown>, string][] = [
        [{ allowedMimeTypes: ['text/html'] }, 'input.allowedMimeTypes'],
        [{ allowedMimeTypes: ['image/png', 'application/x-msdownload'] }, 'input.allowedMimeTypes'],
        [{ maxFileSize: 0 }, 'input.maxFileSize'],
        [{ maxFileSize: -5 }, 'input.maxFileSize'],
        [{ maxFileSize: max + 1 }, 'input.maxFileSize'],
        [{ name: 'y'.repeat(201) }, 'input.name'],
        [{ enabled: null }, 'input.enabled'],
      ];
      for (const [input, field] of bad) {
        const result = await gql(update, { id: form.id, input });
        expect({ input, codes: codes(result), field: result.errors?.[0]?.extensions?.field }).toEqual({
          input,
          codes: ['BAD_USER_INPUT'],
          field,
        });
      }

      const reset = await gql<{ updateForm: FormView }>(update, {
        id: form.id,
        input: { allowedMimeTypes: null, maxFileSize: null, enabled: true },
      });
      expect(reset.data?.updateForm).toMatchObject({
        allowedMimeTypes: [...DEFAULT_ALLOWED_MIME_TYPES],
        usesDefaultMimeTypes: true,
        maxFileSize: max,
        enabled: true,
      });
      const none = await gql<{ updateForm: FormView }>(update, {
        id: form.id,
        input: { allowedMimeTypes: [], maxFileSize: max },
      });
      expect(none.data?.updateForm).toMatchObject({
        allowedMimeTypes: [],
        usesDefaultMimeTypes: false,
        maxFileSize: max,
      });

      const row = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
      expect(row.allowedMimeTypes).toEqual([]);
      expect(codes(await gql(update, { id: '00000000-0000-4000-8000-000000000000', input: { name: 'x' } }))).toEqual([
        'NOT_FOUND',
      ]);
    });

    it('soft-deletes a form: gone from lists and the API view, no longer updatable', async () => {
      const site = await createSite();
      const kept = await createForm(site.id, 'Kept');
      const doomed = await createForm(site.id, 'Doomed');
      const deleted = await gql<{ deleteForm: boolean }>('mutation($id: ID!) { deleteForm(id: $id) }', {
        id: doomed.id,
      });
      expect(deleted.data?.deleteForm).toBe(true);
      expect(
        (await gql<{ deleteForm: boolean }>('mutation($id: ID!) { deleteForm(id: $id) }', { id: doomed.id })).data
          ?.deleteForm,
      ).toBe(false);
      expect(
        (
          await gql<{ forms: FormView[] }>('query($id: ID!) { forms(siteId: $id) { id } }', { id: site.id })
        ).data?.forms.map((f) => f.id),
      ).toEqual([kept.id]);
      expect((await apiView(site.id)).data?.siteApiView.forms.map((f) => f.id)).toEqual([kept.id]);
      expect(
        (await gql<{ form: null }>('query($id: ID!) { form(id: $id) { id } }', { id: doomed.id })).data?.form,
      ).toBeNull();
      expect(
        codes(await gql('mutation($id: ID!) { updateForm(id: $id, input: { name: "x" }) { id } }', { id: doomed.id })),
      ).toEqual(['NOT_FOUND']);
      const row = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: doomed.id });
      expect(row.deletedAt).toBeInstanceOf(Date);
    });
  });

  describe('query limits', () => {
    const deepIntrospection = (depth: number) =>
      `{ __schema { types { fields { type { ${'ofType { '.repeat(depth - 5)}name${' }'.repeat(depth - 5)} } } } } }`;

    it('refuses a query 30 levels deep, with or without a token, and goes on answering', async () => {
      for (const bearer of [token, undefined]) {
        const result = await admin.gql(deepIntrospection(30), {}, bearer);
        expect(result.status).toBe(400);
        expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
        expect(result.data ?? null).toBeNull();
      }
      const fragments = await gql(`
        query { __schema { types { ...A } } }
        fragment A on __Type { fields { type { ...B } } }
        fragment B on __Type { ${'ofType { '.repeat(12)}name${' }'.repeat(12)} }`);
      expect(codes(fragments)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect((await gql('{ sites { id } }')).errors).toBeUndefined();
    });

    it('accepts 15 levels, and the standard introspection query', async () => {
      expect((await gql(deepIntrospection(15))).errors).toBeUndefined();
      expect(codes(await gql(deepIntrospection(16)))).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      const introspection = await gql<{ __schema: { types: unknown[] } }>(getIntrospectionQuery());
      expect(introspection.errors).toBeUndefined();
      expect(introspection.data?.__schema.types.length).toBeGreaterThan(10);
    });

    it('refuses a too costly query and goes on answering; a full page is affordable', async () => {
      const formId = '00000000-0000-4000-8000-000000000000';
      const page = (first: string) =>
        `submissions(formId: "${formId}", first: ${first}) { totalCount edges { cursor node { id data files { id downloadUrl } } } pageInfo { endCursor } }`;
      const costly = `{ ${Array.from({ length: 10 }, (_, index) => `a${index}: ${page('100')}`).join(' ')} }`;
      const result = await gql(costly);
      expect(result.status).toBe(400);
      expect(codes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(result.errors?.[0]?.message).toMatch(/cost/i);
      // A variable `first` counts as the maximum.
      const withVariable = await gql(
        `query($n: Int) { ${Array.from({ length: 4 }, (_, index) => `a${index}: ${page('$n')}`).join(' ')} }`,
        { n: 1 },
      );
      expect(codes(withVariable)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      // One full page of everything is well under the limit (the form does not exist: NOT_FOUND).
      expect(codes(await gql(`{ ${page('100')} }`))).toEqual(['NOT_FOUND']);
      expect((await gql('{ sites { id } }')).errors).toBeUndefined();
    });

    it('refuses 1,050 deleteForm mutations in one request and deletes nothing', async () => {
      const site = await createSite();
      const form = await createForm(site.id, 'Survivor');
      const mutations = Array.from({ length: 1050 }, (_, index) => `d${index}: deleteForm(id: $id)`).join(' ');
      const result = await gql(`mutation($id: ID!) { ${mutations} }`, { id: form.id });
      expect(result.status).toBe(400);
      // Over the alias, root field and cost limits at once: one validation error for each.
      expect(new Set(codes(result))).toEqual(new Set(['GRAPHQL_VALIDATION_FAILED']));
      expect(result.errors?.map((error) => error.message).join(' ')).toMatch(/alias/i);
      const row = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: form.id });
      expect(row.deletedAt).toBeNull();
    });

    it('accepts 50 aliases and refuses 51, also through fragments', async () => {
      const aliased = (count: number) =>
        Array.from({ length: count }, (_, index) => `s${index}: sites { id }`).join(' ');
      const fields = (count: number) => Array.from({ length: count }, (_, index) => `n${index}: name`).join(' ');
      expect((await gql(`{ sites { ${fields(50)} } }`)).errors).toBeUndefined();
      expect(codes(await gql(`{ sites { ${fields(51)} } }`))).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      // Two aliases, and 25 in a fragment spread twice: 52.
      const twice = await gql(`{ a: sites { ...F } b: sites { ...F } } fragment F on Site { ${fields(25)} }`);
      expect(codes(twice)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(twice.errors?.[0]?.message).toMatch(/alias/i);
      expect(codes(await gql(`{ ${aliased(30)} }`))).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect((await gql(`{ ${aliased(25)} }`)).errors).toBeUndefined();
    });

    it('runs 20 scalar root fields, within every limit', async () => {
      const schemaCheck = await gql(
        `mutation($id: ID!) { ${Array.from({ length: 20 }, (_, index) => `d${index}: deleteForm(id: $id)`).join(' ')} }`,
        {
          id: '00000000-0000-4000-8000-000000000000',
        },
      );
      // 20 root fields are within every limit: the request runs (no such form: false each time).
      expect(schemaCheck.errors).toBeUndefined();
      expect(schemaCheck.data?.d0).toBe(false);
    });
  });
});
