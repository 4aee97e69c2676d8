// A submission's inbox state through the GraphQL API, on the database under test: status, assignee
// and internal notes (`manage` changes them, `read` reads them), read and unread per member, the
// list's state filter with archived hidden by default, the counts, and the audit entries.
import { jest } from '@jest/globals';
import {
  AdminUserSchema,
  AuditEntrySchema,
  MemberSiteGrantSchema,
  SiteSchema,
  type Form,
  type MemberRole,
  type Site,
  type SiteGrantLevel,
} from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { testDriverName } from '@intake/shared/test';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(60_000);

const PASSWORD = 'a long enough password 42';

const STATE = `query($id: ID!) { submission(id: $id) {
  status read assignee { id name } notes { text createdAt author { id name } } } }`;
const SET_STATUS =
  'mutation($id: ID!, $status: SubmissionStatus!) { setSubmissionStatus(id: $id, status: $status) { status } }';
const ASSIGN = 'mutation($id: ID!, $to: ID) { assignSubmission(id: $id, assigneeId: $to) { assignee { id } } }';
const NOTE = 'mutation($id: ID!, $text: String!) { addSubmissionNote(id: $id, text: $text) { notes { text } } }';
const MARK =
  'mutation($formId: ID!, $ids: [ID!]!, $read: Boolean) { markSubmissionsRead(formId: $formId, ids: $ids, read: $read) }';
const LIST = `query($formId: ID!, $state: SubmissionStateFilterInput) {
  submissions(formId: $formId, first: 100, state: $state) { totalCount edges { node { id read } } } }`;
const COUNTS = 'query($formId: ID!) { submissionCounts(formId: $formId) { new open done archived unread } }';

describe(`a submission's inbox state on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let owner: string;
  let ownerId: string;
  let site: Site;
  let form: Form;
  const members: Record<string, { id: string; token: string }> = {};

  const gql = <T = Record<string, any>>(query: string, variables: Record<string, unknown>, token = owner) =>
    admin.gql<T>(query, variables, token);

  async function addMember(label: string, role: MemberRole, grant: SiteGrantLevel | null, on?: Site) {
    const em = admin.services.db.em.fork();
    const email = `${label}@example.com`;
    const member = em.create(AdminUserSchema, { email, name: label, role, passwordHash: await hashPassword(PASSWORD) });
    if (grant !== null) {
      em.create(MemberSiteGrantSchema, { member, site: em.getReference(SiteSchema, (on ?? site).id), level: grant });
    }
    await em.flush();
    members[label] = { id: member.id, token: await admin.login(email, PASSWORD) };
  }

  async function submission(data: Record<string, unknown> = { name: 'Ada' }, target = form): Promise<string> {
    return (await makeSubmission(admin.services, target, { data })).submission.id;
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    owner = await admin.login();
    ownerId = (await admin.services.db.em.fork().findOneOrFail(AdminUserSchema, { role: 'owner' })).id;
    ({ site } = await makeSite(admin.services));
    form = await makeForm(admin.services, site);
    const { site: otherSite } = await makeSite(admin.services);
    await addMember('reader', 'member', 'read');
    await addMember('manager', 'member', 'manage');
    await addMember('elsewhere', 'member', 'manage', otherSite);
    await addMember('teamadmin', 'admin', null);
  }, 120_000);

  afterAll(async () => {
    await admin?.close();
  });

  it('starts new, unassigned, without notes and unread', async () => {
    const id = await submission();
    const result = await gql(STATE, { id });
    expect(result.data?.submission).toEqual({ status: 'new', read: false, assignee: null, notes: [] });
  });

  it('lets `manage` change status, assignee and notes, and `read` only read them and mark them read', async () => {
    const id = await submission();
    const reader = members.reader!.token;
    expect(codes(await gql(SET_STATUS, { id, status: 'open' }, reader))).toEqual(['FORBIDDEN']);
    expect(codes(await gql(ASSIGN, { id, to: members.reader!.id }, reader))).toEqual(['FORBIDDEN']);
    expect(codes(await gql(NOTE, { id, text: 'mine' }, reader))).toEqual(['FORBIDDEN']);

    const manager = members.manager!.token;
    expect((await gql(SET_STATUS, { id, status: 'open' }, manager)).data?.setSubmissionStatus).toEqual({
      status: 'open',
    });
    expect((await gql(ASSIGN, { id, to: members.reader!.id }, manager)).data?.assignSubmission).toEqual({
      assignee: { id: members.reader!.id },
    });
    expect((await gql(NOTE, { id, text: 'Called back' }, manager)).data?.addSubmissionNote).toEqual({
      notes: [{ text: 'Called back' }],
    });

    expect((await gql(MARK, { formId: form.id, ids: [id] }, reader)).data?.markSubmissionsRead).toBe(1);
    const seen = await gql(STATE, { id }, reader);
    expect(seen.data?.submission).toMatchObject({
      status: 'open',
      read: true,
      assignee: { id: members.reader!.id, name: 'reader' },
      notes: [{ text: 'Called back', author: { id: members.manager!.id, name: 'manager' } }],
    });
    // Read is the reader's own: the manager has not read it.
    expect((await gql(STATE, { id }, manager)).data?.submission.read).toBe(false);
    // A member of another site neither sees it nor reaches it through a form of theirs.
    const elsewhere = members.elsewhere!.token;
    expect((await gql(STATE, { id }, elsewhere)).data?.submission).toBeNull();
    expect(codes(await gql(SET_STATUS, { id, status: 'done' }, elsewhere))).toEqual(['NOT_FOUND']);
    expect(codes(await gql(MARK, { formId: form.id, ids: [id] }, elsewhere))).toEqual(['NOT_FOUND']);
  });

  it('stores a note sanitised as submitted text, and refuses one that is empty, only markup or too long', async () => {
    const id = await submission();
    const sent = '<img src=x onerror=alert(1)>Call <b>Tom</b> & "Jerry"\n<script>steal()</script>tomorrow';
    const added = await gql(NOTE, { id, text: sent });
    expect(added.errors).toBeUndefined();
    expect(added.data?.addSubmissionNote.notes).toEqual([{ text: 'Call Tom &amp; &quot;Jerry&quot;\ntomorrow' }]);
    for (const text of ['', '   ', '<script>alert(1)</script>', '<img src=x>', 'x'.repeat(5001), 'a\u0000b']) {
      const refused = await gql(NOTE, { id, text });
      expect({ text: text.slice(0, 20), codes: codes(refused), field: refused.errors?.[0]?.extensions?.field }).toEqual(
        {
          text: text.slice(0, 20),
          codes: ['BAD_USER_INPUT'],
          field: 'text',
        },
      );
    }
    expect((await gql(STATE, { id })).data?.submission.notes).toHaveLength(1);
  });

  it('assigns only to an active member who can read the site, and unassigns with null', async () => {
    const id = await submission();
    for (const to of [members.elsewhere!.id, '00000000-0000-4000-8000-000000000000']) {
      const refused = await gql(ASSIGN, { id, to });
      expect({ codes: codes(refused), field: refused.errors?.[0]?.extensions?.field }).toEqual({
        codes: ['BAD_USER_INPUT'],
        field: 'assigneeId',
      });
    }
    for (const to of [members.reader!.id, members.teamadmin!.id, ownerId]) {
      expect((await gql(ASSIGN, { id, to })).data?.assignSubmission).toEqual({ assignee: { id: to } });
    }
    const em = admin.services.db.em.fork();
    await em.nativeUpdate(AdminUserSchema, { id: members.teamadmin!.id }, { status: 'disabled' });
    expect(codes(await gql(ASSIGN, { id, to: members.teamadmin!.id }))).toEqual(['BAD_USER_INPUT']);
    await em.nativeUpdate(AdminUserSchema, { id: members.teamadmin!.id }, { status: 'active' });
    expect((await gql(ASSIGN, { id, to: null })).data?.assignSubmission).toEqual({ assignee: null });
  });

  it('lists who may be assigned: owners, admins and members with access to the site, to its readers', async () => {
    const ASSIGNEES = 'query($formId: ID!) { submissionAssignees(formId: $formId) { id name } }';
    const listed = await gql<{ submissionAssignees: { id: string; name: string }[] }>(
      ASSIGNEES,
      { formId: form.id },
      members.reader!.token,
    );
    expect(listed.errors).toBeUndefined();
    const ids = listed.data!.submissionAssignees.map((member) => member.id);
    expect(ids).toEqual(
      expect.arrayContaining([ownerId, members.reader!.id, members.manager!.id, members.teamadmin!.id]),
    );
    expect(ids).not.toContain(members.elsewhere!.id);
    // Each of them is accepted by assignSubmission; the one left out is refused.
    const id = await submission();
    for (const member of ids) {
      expect((await gql(ASSIGN, { id, to: member })).errors).toBeUndefined();
    }
    expect(codes(await gql(ASSIGN, { id, to: members.elsewhere!.id }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await gql(ASSIGNEES, { formId: form.id }, members.elsewhere!.token))).toEqual(['NOT_FOUND']);
  });

  it('filters the list by status (archived hidden by default), mine and unread, and counts per status', async () => {
    const inbox = await makeForm(admin.services, site);
    const ids = {
      fresh: await submission({ n: 1 }, inbox),
      open: await submission({ n: 2 }, inbox),
      done: await submission({ n: 3 }, inbox),
      archived: await submission({ n: 4 }, inbox),
    };
    const manager = members.manager!;
    await gql(SET_STATUS, { id: ids.open, status: 'open' });
    await gql(SET_STATUS, { id: ids.done, status: 'done' });
    await gql(SET_STATUS, { id: ids.archived, status: 'archived' });
    await gql(ASSIGN, { id: ids.open, to: manager.id });
    await gql(ASSIGN, { id: ids.archived, to: manager.id });
    await gql(MARK, { formId: inbox.id, ids: [ids.done, ids.archived] }, manager.token);

    const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    async function listed(state: Record<string, unknown> | null, token = manager.token) {
      const result = await gql<{ submissions: { totalCount: number; edges: { node: { id: string } }[] } }>(
        LIST,
        { formId: inbox.id, state },
        token,
      );
      expect(result.errors).toBeUndefined();
      const found = result.data!.submissions.edges.map((edge) => names.get(edge.node.id)).sort();
      expect(result.data!.submissions.totalCount).toBe(found.length);
      return found;
    }
    expect(await listed(null)).toEqual(['done', 'fresh', 'open']);
    expect(await listed({ status: [] })).toEqual(['done', 'fresh', 'open']);
    expect(await listed({ status: ['archived'] })).toEqual(['archived']);
    expect(await listed({ status: ['new', 'archived'] })).toEqual(['archived', 'fresh']);
    expect(await listed({ mine: true })).toEqual(['open']);
    expect(await listed({ mine: true, status: ['archived', 'open'] })).toEqual(['archived', 'open']);
    expect(await listed({ assigneeId: manager.id }, owner)).toEqual(['open']);
    expect(await listed({ mine: true }, owner)).toEqual([]);
    expect(await listed({ unread: true })).toEqual(['fresh', 'open']);
    expect(await listed({ unread: true }, owner)).toEqual(['done', 'fresh', 'open']);
    expect(codes(await gql(LIST, { formId: inbox.id, state: { mine: true, assigneeId: manager.id } }))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(codes(await gql(LIST, { formId: inbox.id, state: { assigneeId: 'nobody' } }))).toEqual(['BAD_USER_INPUT']);

    const counts = await gql(COUNTS, { formId: inbox.id }, manager.token);
    expect(counts.data?.submissionCounts).toEqual({ new: 1, open: 1, done: 1, archived: 1, unread: 2 });
    // Unread again, and read is per member.
    await gql(MARK, { formId: inbox.id, ids: [ids.done], read: false }, manager.token);
    expect((await gql(COUNTS, { formId: inbox.id }, manager.token)).data?.submissionCounts.unread).toBe(3);
    expect((await gql(COUNTS, { formId: inbox.id })).data?.submissionCounts.unread).toBe(3);
  });

  it('bounds the selection of markSubmissionsRead and leaves ids of another form alone', async () => {
    const id = await submission();
    const other = await makeForm(admin.services, site);
    const elsewhere = await submission({ n: 1 }, other);
    const marked = await gql(MARK, { formId: form.id, ids: [id, id, elsewhere] });
    expect(marked.data?.markSubmissionsRead).toBe(1);
    expect((await gql(STATE, { id: elsewhere })).data?.submission.read).toBe(false);
    const many = Array.from({ length: 101 }, () => crypto.randomUUID());
    for (const ids of [[], many, ['not an id']]) {
      const refused = await gql(MARK, { formId: form.id, ids });
      expect({ codes: codes(refused), field: refused.errors?.[0]?.extensions?.field }).toEqual({
        codes: ['BAD_USER_INPUT'],
        field: expect.stringMatching(/^ids/),
      });
    }
  });

  it('sets the status of many submissions of one form at once, for `manage` only, within the bound', async () => {
    const bulk = await makeForm(admin.services, site);
    const ids = [await submission({ n: 1 }, bulk), await submission({ n: 2 }, bulk)];
    const elsewhere = await submission();
    const SET_MANY =
      'mutation($formId: ID!, $ids: [ID!]!, $status: SubmissionStatus!) { setSubmissionsStatus(formId: $formId, ids: $ids, status: $status) }';
    const variables = { formId: bulk.id, ids: [...ids, elsewhere], status: 'archived' };
    expect(codes(await gql(SET_MANY, variables, members.reader!.token))).toEqual(['FORBIDDEN']);
    expect((await gql(SET_MANY, variables, members.manager!.token)).data?.setSubmissionsStatus).toBe(2);
    for (const id of ids) {
      expect((await gql(STATE, { id })).data?.submission.status).toBe('archived');
    }
    expect((await gql(STATE, { id: elsewhere })).data?.submission.status).toBe('new');
    const many = Array.from({ length: 101 }, () => crypto.randomUUID());
    expect(codes(await gql(SET_MANY, { ...variables, ids: many }))).toEqual(['BAD_USER_INPUT']);
    const entry = await admin.services.db.em
      .fork()
      .findOneOrFail(AuditEntrySchema, { action: 'setSubmissionsStatus', outcome: 'success' });
    expect(entry).toMatchObject({ objectType: 'Form', objectId: bulk.id });
    expect(entry.details).toMatchObject({ status: 'archived', result: 2 });
  });

  it('assigns, moves to and out of spam, and deletes a selection of one form, each call audited', async () => {
    const bulk = await makeForm(admin.services, site);
    const ids = [await submission({ n: 1 }, bulk), await submission({ n: 2 }, bulk)];
    const elsewhere = await submission();
    const ASSIGN_MANY =
      'mutation($formId: ID!, $ids: [ID!]!, $to: ID) { assignSubmissions(formId: $formId, ids: $ids, assigneeId: $to) }';
    const SPAM_MANY =
      'mutation($formId: ID!, $ids: [ID!]!, $spam: Boolean) { markSubmissionsSpam(formId: $formId, ids: $ids, spam: $spam) }';
    const DELETE_MANY = 'mutation($formId: ID!, $ids: [ID!]!) { deleteSubmissions(formId: $formId, ids: $ids) }';
    const SPAM_STATE = 'query($id: ID!) { submission(id: $id) { spam spamReason assignee { id } } }';
    const selection = { formId: bulk.id, ids: [...ids, elsewhere] };
    const reader = members.reader!.token;
    const manager = members.manager!.token;

    for (const [query, extra] of [
      [ASSIGN_MANY, { to: members.reader!.id }],
      [SPAM_MANY, {}],
      [DELETE_MANY, {}],
    ] as const) {
      expect(codes(await gql(query, { ...selection, ...extra }, reader))).toEqual(['FORBIDDEN']);
    }
    // Only someone who can read the site may be assigned.
    const refused = await gql(ASSIGN_MANY, { ...selection, to: members.elsewhere!.id }, manager);
    expect({ codes: codes(refused), field: refused.errors?.[0]?.extensions?.field }).toEqual({
      codes: ['BAD_USER_INPUT'],
      field: 'assigneeId',
    });

    expect((await gql(ASSIGN_MANY, { ...selection, to: members.reader!.id }, manager)).data?.assignSubmissions).toBe(2);
    expect((await gql(SPAM_MANY, selection, manager)).data?.markSubmissionsSpam).toBe(2);
    for (const id of ids) {
      expect((await gql(SPAM_STATE, { id })).data?.submission).toEqual({
        spam: true,
        spamReason: 'marked',
        assignee: { id: members.reader!.id },
      });
    }
    expect((await gql(SPAM_STATE, { id: elsewhere })).data?.submission).toEqual({
      spam: false,
      spamReason: null,
      assignee: null,
    });
    const inbox = await gql(LIST, { formId: bulk.id });
    expect(inbox.data?.submissions.totalCount).toBe(0);
    expect(
      (await gql(SPAM_MANY, { formId: bulk.id, ids: [ids[0]], spam: false }, manager)).data?.markSubmissionsSpam,
    ).toBe(1);
    expect((await gql(SPAM_STATE, { id: ids[0] })).data?.submission.spam).toBe(false);

    expect(
      codes(await gql(DELETE_MANY, { formId: bulk.id, ids: Array.from({ length: 101 }, () => crypto.randomUUID()) })),
    ).toEqual(['BAD_USER_INPUT']);
    expect((await gql(DELETE_MANY, selection, manager)).data?.deleteSubmissions).toBe(2);
    for (const id of ids) {
      expect((await gql(SPAM_STATE, { id })).data?.submission).toBeNull();
    }
    expect((await gql(SPAM_STATE, { id: elsewhere })).data?.submission).not.toBeNull();

    const entries = await admin.services.db.em
      .fork()
      .find(AuditEntrySchema, { objectId: bulk.id, outcome: 'success' }, { orderBy: { seq: 'asc' } });
    expect(entries.map((entry) => [entry.action, entry.details?.result])).toEqual([
      ['assignSubmissions', 2],
      ['markSubmissionsSpam', 2],
      ['markSubmissionsSpam', 1],
      ['deleteSubmissions', 2],
    ]);
    expect(entries.at(-1)!.details?.ids).toEqual(expect.arrayContaining(ids));
  });

  it('keeps the notes of a member who is removed, without an author, and unassigns what was theirs', async () => {
    const id = await submission();
    await addMember('leaving', 'member', 'manage');
    const leaving = members.leaving!;
    await gql(NOTE, { id, text: 'Before I go' }, leaving.token);
    await gql(ASSIGN, { id, to: leaving.id });
    const removed = await gql('mutation($id: ID!) { removeMember(id: $id) }', { id: leaving.id });
    expect(removed.errors).toBeUndefined();
    const after = await gql(STATE, { id });
    expect(after.data?.submission).toMatchObject({
      assignee: null,
      notes: [{ text: 'Before I go', author: null }],
    });
  });

  it('writes audit entries naming the submission and the status, never the note text', async () => {
    const id = await submission();
    await gql(SET_STATUS, { id, status: 'done' });
    await gql(NOTE, { id, text: 'A private remark 7a1c' });
    const entries = await admin.services.db.em
      .fork()
      .find(AuditEntrySchema, { objectId: id }, { orderBy: { seq: 'asc' } });
    expect(entries.map((entry) => [entry.action, entry.objectType, entry.outcome])).toEqual([
      ['setSubmissionStatus', 'Submission', 'success'],
      ['addSubmissionNote', 'Submission', 'success'],
    ]);
    expect(entries[0]!.details).toMatchObject({ status: 'done', 'result.status': 'done' });
    expect(JSON.stringify(entries)).not.toContain('7a1c');
  });
});
