import { jest } from '@jest/globals';
import { FormSchema, StoredFileSchema, SubmissionSchema, type Form, type Site } from '@intake/shared/entities';
import { testDriverName } from '@intake/shared/test';
import { startAdmin } from '../server.js';
import { createDownloadLinks } from '../lib/download-link.js';
import { makeForm, makeSite, makeSubmission, sampleFile, type MadeSubmission } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

const SUBMISSION_FIELDS = 'id formId createdAt data files { id field name mimeType size sha256 downloadUrl }';
const PAGE = `query($formId: ID!, $first: Int, $after: String) {
  submissions(formId: $formId, first: $first, after: $after) {
    totalCount
    edges { cursor node { ${SUBMISSION_FIELDS} } }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface FileView {
  id: string;
  field: string;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
  downloadUrl: string;
}

interface SubmissionView {
  id: string;
  formId: string;
  createdAt: string;
  data: Record<string, unknown>;
  files: FileView[];
}

interface Connection {
  totalCount: number;
  edges: { cursor: string; node: SubmissionView }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

// Real servers and password hashing: slower than the default 5 s on a busy machine.
jest.setTimeout(30_000);

describe(`submissions and downloads on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  let site: Site;
  let form: Form;
  let made: MadeSubmission[];

  const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) =>
    admin.gql<T>(query, variables, token);
  const page = (variables: Record<string, unknown>) => gql<{ submissions: Connection }>(PAGE, variables);
  const readSubmission = async (id: string) =>
    (
      await gql<{ submission: SubmissionView | null }>(
        `query($id: ID!) { submission(id: $id) { ${SUBMISSION_FIELDS} } }`,
        { id },
      )
    ).data?.submission;

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
    ({ site } = await makeSite(admin.services));
    form = await makeForm(admin.services, site);
    // 25 submissions a second apart, except two pairs that share a timestamp (ties broken by id).
    const base = Date.UTC(2026, 0, 1, 12, 0, 0);
    const offsets = Array.from({ length: 25 }, (_, index) => (index === 7 || index === 15 ? index - 1 : index));
    made = [];
    for (const [index, offset] of offsets.entries()) {
      made.push(
        await makeSubmission(admin.services, form, {
          createdAt: new Date(base + offset * 1000),
          data: { index, name: `Person ${index}` },
          files: [sampleFile({ field: 'doc', name: `file-${index}.txt` })],
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    await admin?.close();
  }, 30_000);

  it('pages through 25 submissions newest first with opaque cursors', async () => {
    const expectedOrder = [...made]
      .sort(
        (a, b) =>
          b.submission.createdAt.getTime() - a.submission.createdAt.getTime() ||
          (b.submission.id > a.submission.id ? 1 : -1),
      )
      .map((entry) => entry.submission.id);

    const seen: string[] = [];
    const hasNext: boolean[] = [];
    let after: string | null = null;
    for (let round = 0; round < 5; round += 1) {
      const result = await page({ formId: form.id, first: 10, after });
      expect(result.errors).toBeUndefined();
      const connection = result.data!.submissions;
      expect(connection.totalCount).toBe(25);
      seen.push(...connection.edges.map((edge) => edge.node.id));
      hasNext.push(connection.pageInfo.hasNextPage);
      expect(connection.pageInfo.endCursor).toBe(connection.edges.at(-1)?.cursor ?? null);
      if (!connection.pageInfo.hasNextPage) {
        break;
      }
      after = connection.pageInfo.endCursor;
    }
    expect(hasNext).toEqual([true, true, false]);
    expect(seen).toEqual(expectedOrder);

    const defaults = await page({ formId: form.id });
    expect(defaults.data?.submissions.edges).toHaveLength(20);
    expect(defaults.data?.submissions.pageInfo.hasNextPage).toBe(true);
    const none = await page({ formId: form.id, first: 0 });
    expect(none.data?.submissions).toEqual({
      totalCount: 25,
      edges: [],
      pageInfo: { hasNextPage: true, endCursor: null },
    });
    const all = await page({ formId: form.id, first: 100 });
    expect(all.data?.submissions.edges).toHaveLength(25);
    expect(all.data?.submissions.pageInfo).toEqual({
      hasNextPage: false,
      endCursor: all.data?.submissions.edges.at(-1)?.cursor,
    });
  });

  it('refuses bad paging arguments and unknown forms', async () => {
    for (const variables of [
      { first: 101 },
      { first: -1 },
      { after: 'not a cursor' },
      { after: Buffer.from('1:x').toString('base64url') },
    ]) {
      const result = await page({ formId: form.id, ...variables });
      expect({ variables, codes: codes(result) }).toEqual({ variables, codes: ['BAD_USER_INPUT'] });
    }
    expect(codes(await page({ formId: 'nope' }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await page({ formId: '00000000-0000-4000-8000-000000000000' }))).toEqual(['NOT_FOUND']);
    expect(await readSubmission('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('reads a submission back with its data and files', async () => {
    const data = {
      name: 'Zoë',
      nested: { list: [1, 2.5, true, null, 'x'], deep: { ok: false } },
      empty: {},
      emoji: '🎉',
    };
    const sample = sampleFile({
      field: 'cv',
      name: 'Résumé "final"; v2.pdf',
      mimeType: 'application/pdf',
      bytes: Buffer.from('%PDF-1.7\n%âãÏÓ\nbinary\u0000bytes'),
    });
    const { submission, files } = await makeSubmission(admin.services, form, { data, files: [sample] });
    const read = await readSubmission(submission.id);
    expect(read).toEqual({
      id: submission.id,
      formId: form.id,
      createdAt: submission.createdAt.toISOString(),
      data,
      files: [
        {
          id: files[0]!.id,
          field: 'cv',
          name: 'Résumé "final"; v2.pdf',
          mimeType: 'application/pdf',
          size: sample.bytes.length,
          sha256: files[0]!.sha256,
          downloadUrl: expect.stringMatching(
            new RegExp(`^${admin.url}/files/${files[0]!.id}\\?expires=\\d+&sig=[A-Za-z0-9_-]{43}$`),
          ),
        },
      ],
    });

    const response = await fetch(read!.files[0]!.downloadUrl);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(sample.bytes);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-length')).toBe(String(sample.bytes.length));
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Resume _final_; v2.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%3B%20v2.pdf`,
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('refuses tampered, foreign and expired links with 403, and a missing object with 404', async () => {
    const target = made[3]!;
    const file = target.files[0]!;
    const url = new URL((await readSubmission(target.submission.id))!.files[0]!.downloadUrl);
    expect((await fetch(url)).status).toBe(200);

    const tampered = new URL(url);
    const sig = tampered.searchParams.get('sig')!;
    tampered.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    const extended = new URL(url);
    extended.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const foreign = new URL(url);
    foreign.pathname = `/files/${made[4]!.files[0]!.id}`;
    const unsigned = new URL(url.pathname, url);
    const config = admin.services.config;
    const expired = createDownloadLinks({
      jwtSecret: config.jwtSecret,
      ttlSeconds: 60,
      publicOrigin: () => admin.url,
    }).urlFor(file.id, new Date(Date.now() - 3_600_000));
    const otherKey = createDownloadLinks({
      jwtSecret: `${config.jwtSecret}x`,
      ttlSeconds: 60,
      publicOrigin: () => admin.url,
    }).urlFor(file.id);
    for (const bad of [tampered, extended, foreign, unsigned, expired, otherKey]) {
      const response = await fetch(bad);
      expect({ url: String(bad), status: response.status }).toEqual({ url: String(bad), status: 403 });
      expect(await response.text()).toBe('Forbidden');
    }

    // A valid link to a file whose bytes disappeared from storage.
    const lost = made[5]!;
    await admin.services.storage.delete(lost.files[0]!.storageKey);
    const lostUrl = (await readSubmission(lost.submission.id))!.files[0]!.downloadUrl;
    expect((await fetch(lostUrl)).status).toBe(404);
  });

  it('deleteSubmission removes the rows, then the stored objects; its links answer 404', async () => {
    const target = await makeSubmission(admin.services, form, {
      files: [sampleFile(), sampleFile({ field: 'second', name: 'b.txt' })],
    });
    const view = (await readSubmission(target.submission.id))!;
    expect(view.files).toHaveLength(2);
    for (const file of target.files) {
      expect(await admin.services.storage.get(file.storageKey)).toBeDefined();
    }
    const before = (await page({ formId: form.id, first: 0 })).data!.submissions.totalCount;

    const deleted = await gql<{ deleteSubmission: boolean }>('mutation($id: ID!) { deleteSubmission(id: $id) }', {
      id: target.submission.id,
    });
    expect(deleted.data?.deleteSubmission).toBe(true);
    for (const file of view.files) {
      expect((await fetch(file.downloadUrl)).status).toBe(404);
    }
    for (const file of target.files) {
      const object = await admin.services.storage.get(file.storageKey);
      expect(object).toBeUndefined();
    }
    const em = admin.services.db.em.fork();
    expect(await em.count(StoredFileSchema, { submission: target.submission.id })).toBe(0);
    expect(await em.count(SubmissionSchema, { id: target.submission.id })).toBe(0);
    expect(await readSubmission(target.submission.id)).toBeNull();
    expect((await page({ formId: form.id, first: 0 })).data!.submissions.totalCount).toBe(before - 1);
    expect(
      (
        await gql<{ deleteSubmission: boolean }>('mutation($id: ID!) { deleteSubmission(id: $id) }', {
          id: target.submission.id,
        })
      ).data?.deleteSubmission,
    ).toBe(false);
    expect(codes(await gql('mutation { deleteSubmission(id: "nope") }'))).toEqual(['BAD_USER_INPUT']);
  });

  it('keeps the submissions of a deleted form, and of a deleted site, readable and deletable', async () => {
    const { site: otherSite } = await makeSite(admin.services, { name: 'Other' });
    const closedForm = await makeForm(admin.services, otherSite);
    const kept = await makeSubmission(admin.services, closedForm, { data: { keep: 'me' }, files: [sampleFile()] });
    const alsoKept = await makeSubmission(admin.services, closedForm, { data: { keep: 'me too' } });

    expect(
      (await gql<{ deleteForm: boolean }>('mutation($id: ID!) { deleteForm(id: $id) }', { id: closedForm.id })).data
        ?.deleteForm,
    ).toBe(true);
    const listed = await page({ formId: closedForm.id });
    expect(listed.data?.submissions.totalCount).toBe(2);
    const read = (await readSubmission(kept.submission.id))!;
    expect(read.data).toEqual({ keep: 'me' });
    expect((await fetch(read.files[0]!.downloadUrl)).status).toBe(200);

    expect(
      (await gql<{ deleteSite: boolean }>('mutation($id: ID!) { deleteSite(id: $id) }', { id: otherSite.id })).data
        ?.deleteSite,
    ).toBe(true);
    expect((await page({ formId: closedForm.id })).data?.submissions.totalCount).toBe(2);
    expect(
      (
        await gql<{ deleteSubmission: boolean }>('mutation($id: ID!) { deleteSubmission(id: $id) }', {
          id: alsoKept.submission.id,
        })
      ).data?.deleteSubmission,
    ).toBe(true);
    expect((await page({ formId: closedForm.id })).data?.submissions.totalCount).toBe(1);
    const row = await admin.services.db.em.fork().findOneOrFail(FormSchema, { id: closedForm.id });
    expect(row.deletedAt).toBeInstanceOf(Date);
  });

  it('builds download links on PUBLIC_ADMIN_URL when it is set', async () => {
    const config = { ...admin.services.config, publicAdminUrl: 'https://admin.example.com' };
    const second = await startAdmin({ ...admin.services, config });
    try {
      const secondToken = await (async () => {
        const result = await admin.gql<{ login: { token: string } }>(
          `mutation { login(email: "admin@example.com", password: "correct horse battery staple") { token } }`,
        );
        return result.data!.login.token;
      })();
      const response = await fetch(`${second.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secondToken}` },
        body: JSON.stringify({ query: `{ submission(id: "${made[0]!.submission.id}") { files { downloadUrl } } }` }),
      });
      const body = (await response.json()) as { data: { submission: { files: { downloadUrl: string }[] } } };
      expect(body.data.submission.files[0]!.downloadUrl).toMatch(/^https:\/\/admin\.example\.com\/files\//);
    } finally {
      await second.close();
    }
  });

  it('masks internal errors and logs them with the request id', async () => {
    const error = jest.spyOn(admin.services.logger, 'error');
    const issue = jest.spyOn(admin.services.siteTokens, 'issue').mockImplementation(() => {
      throw new Error('secret detail /var/lib/intake');
    });
    try {
      const response = await fetch(`${admin.url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'x-request-id': 'req-masking-1',
        },
        body: JSON.stringify({ query: `{ siteApiView(siteId: "${site.id}") { token } }` }),
      });
      const text = await response.text();
      expect(text).not.toMatch(/secret|var\/lib/);
      const body = JSON.parse(text) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors).toEqual([
        expect.objectContaining({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
      ]);
      expect(response.headers.get('x-request-id')).toBe('req-masking-1');
      expect(error).toHaveBeenCalledWith(expect.objectContaining({ requestId: 'req-masking-1' }), expect.any(String));
    } finally {
      issue.mockRestore();
      error.mockRestore();
    }

    const get = jest
      .spyOn(admin.services.storage, 'get')
      .mockRejectedValueOnce(new Error('disk on fire at /secret/path'));
    try {
      const url = (await readSubmission(made[0]!.submission.id))!.files[0]!.downloadUrl;
      const response = await fetch(url);
      expect(response.status).toBe(500);
      expect(await response.text()).toBe('Internal server error');
    } finally {
      get.mockRestore();
    }
  });

  it('reports not ready and masks errors when the database does not answer', async () => {
    const down = () => Promise.reject(new Error('connection refused by db.internal:5432'));
    const broken = { getConnection: () => ({ execute: down }), find: down, findOne: down, count: down };
    const fork = jest.spyOn(admin.services.db.em, 'fork').mockImplementation(() => broken as never);
    try {
      const ready = await fetch(`${admin.url}/readyz`);
      expect(ready.status).toBe(503);
      const result = await gql('{ sites { id } }');
      expect(codes(result)).toEqual(['INTERNAL_SERVER_ERROR']);
      expect(result.errors?.[0]?.message).toBe('Internal server error');
      expect(JSON.stringify(result)).not.toContain('db.internal');
      expect((await fetch(`${admin.url}/healthz`)).status).toBe(200);
    } finally {
      fork.mockRestore();
    }
    expect((await fetch(`${admin.url}/readyz`)).status).toBe(200);
  });
});
