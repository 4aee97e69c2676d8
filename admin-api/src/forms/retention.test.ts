// A form's retention through the admin API: retentionDays within its bounds, and the date the
// oldest submission (spam included) will be deleted.
import { jest } from '@jest/globals';
import { makeStoredSubmission, testDriverName } from '@intake/shared/test';
import { makeForm, makeSite } from '../test/factories.js';
import { codes, startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(30_000);

describe(`form retention settings on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;
  const SETTING = 'retentionDays retentionNextDeletionAt';

  // Migrating a fresh database and hashing the password take long on a busy machine.
  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
  }, 90_000);

  afterAll(async () => {
    await admin?.close();
  });

  it('sets retentionDays within 1..3650 and tells when the oldest submission goes', async () => {
    const { site } = await makeSite(admin.services);
    const form = await makeForm(admin.services, site);
    const update = (retentionDays: unknown) =>
      admin.gql(
        `mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { ${SETTING} } }`,
        { id: form.id, input: { retentionDays } },
        token,
      );
    expect((await update(30)).data?.updateForm).toEqual({ retentionDays: 30, retentionNextDeletionAt: null });
    const DAY = 24 * 60 * 60 * 1000;
    const oldest = new Date(Date.now() - 10 * DAY);
    await makeStoredSubmission(admin.services, form.id, { createdAt: new Date(Date.now() - 2 * DAY) });
    await makeStoredSubmission(admin.services, form.id, { createdAt: oldest, spam: true });
    const read = await admin.gql(`query($id: ID!) { form(id: $id) { ${SETTING} } }`, { id: form.id }, token);
    expect(read.data?.form).toEqual({
      retentionDays: 30,
      retentionNextDeletionAt: new Date(oldest.getTime() + 30 * DAY).toISOString(),
    });
    // Shortened below the oldest's age: it goes with the next run, so the date is now, not the past.
    const before = Date.now();
    const shortened = (await update(7)).data?.updateForm;
    expect(shortened.retentionDays).toBe(7);
    const due = Date.parse(shortened.retentionNextDeletionAt);
    expect(due).toBeGreaterThanOrEqual(before);
    expect(due).toBeLessThanOrEqual(Date.now());

    for (const bad of [0, -1, 3651]) {
      expect(codes(await update(bad))).toEqual(['BAD_USER_INPUT']);
    }
    expect((await update(3650)).data?.updateForm.retentionDays).toBe(3650);
    expect((await update(null)).data?.updateForm).toEqual({ retentionDays: null, retentionNextDeletionAt: null });
  });
});
