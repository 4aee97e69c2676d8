// The console home's statistics: submissions per form and UTC day, refusals per code and day,
// every day of the period present, days bounded.
import { jest } from '@jest/globals';
import { addRefusalCounts, lastUtcDays, readSubmissionCounts } from '@intake/shared/statistics';
import { testDriverName } from '@intake/shared/test';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(60_000);

const at = (day: string, time: string) => new Date(`${day}T${time}Z`);

describe(`statistics on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let token: string;

  beforeAll(async () => {
    admin = await startTestAdmin();
    token = await admin.login();
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('counts inbox submissions per form and UTC day across day boundaries, zero days filled', async () => {
    const days = lastUtcDays(31);
    const [outside, first] = [days[0]!, days[1]!];
    const [yesterday, today] = [days[29]!, days[30]!];
    const { site } = await makeSite(admin.services, { name: 'Shop' });
    const busy = await makeForm(admin.services, site, { name: 'Orders' });
    const quiet = await makeForm(admin.services, site, { name: 'Contact' });
    await makeForm(admin.services, site, { name: 'Never used' });
    const gone = await makeForm(admin.services, site, { name: 'Gone', deletedAt: new Date() });
    const { site: deletedSite } = await makeSite(admin.services, { name: 'Closed', deletedAt: new Date() });
    const ofDeletedSite = await makeForm(admin.services, deletedSite);

    for (const [form, createdAt, spam] of [
      [busy, at(outside, '23:59:59.999'), false], // the day before the period
      [busy, at(first, '00:00:00.000'), false], // the period's first instant
      [busy, at(yesterday, '23:59:59.999'), false],
      [busy, at(today, '00:00:00.000'), false],
      [busy, at(today, '00:00:00.001'), false],
      [busy, at(today, '00:00:00.002'), true],
      [quiet, at(yesterday, '12:00:00.000'), false],
      [quiet, at(first, '08:00:00.000'), true],
      [gone, at(today, '00:00:01.000'), false],
      [ofDeletedSite, at(today, '00:00:01.000'), false],
    ] as const) {
      await makeSubmission(admin.services, form, { createdAt, spam });
    }

    const result = await admin.gql<any>(
      `{ submissionStats { days forms { formId formName siteId siteName total days { day count } } spam { day count } } }`,
      {},
      token,
    );
    expect(result.errors).toBeUndefined();
    const stats = result.data.submissionStats;
    const period = days.slice(1);
    expect(stats.days).toEqual(period);
    const series = (counts: Record<string, number>) => period.map((day) => ({ day, count: counts[day] ?? 0 }));
    expect(stats.forms).toEqual([
      {
        formId: busy.id,
        formName: 'Orders',
        siteId: site.id,
        siteName: 'Shop',
        total: 4,
        days: series({ [first]: 1, [yesterday]: 1, [today]: 2 }),
      },
      {
        formId: quiet.id,
        formName: 'Contact',
        siteId: site.id,
        siteName: 'Shop',
        total: 1,
        days: series({ [yesterday]: 1 }),
      },
    ]);
    expect(stats.spam).toEqual(series({ [first]: 1, [today]: 1 }));

    // Spam by form, for the list the Overview's spam card leads to: most first, then by name.
    const spamForms = await admin.gql<any>(
      '{ submissionStats { spamForms { formId formName siteId siteName total } } }',
      {},
      token,
    );
    expect(spamForms.data.submissionStats.spamForms).toEqual([
      { formId: quiet.id, formName: 'Contact', siteId: site.id, siteName: 'Shop', total: 1 },
      { formId: busy.id, formName: 'Orders', siteId: site.id, siteName: 'Shop', total: 1 },
    ]);

    const oneDay = await admin.gql<any>('{ submissionStats(days: 1) { days forms { formName total } } }', {}, token);
    expect(oneDay.data.submissionStats).toEqual({ days: [today], forms: [{ formName: 'Orders', total: 2 }] });
    const longest = await admin.gql<any>('{ submissionStats(days: 90) { days forms { total } } }', {}, token);
    expect(longest.data.submissionStats.days).toHaveLength(90);
    expect(longest.data.submissionStats.forms.map((form: any) => form.total)).toEqual([5, 1]);
  });

  it("counts by the UTC day whatever the database session's time zone", async () => {
    const { site } = await makeSite(admin.services, { name: 'Zones' });
    const form = await makeForm(admin.services, site, { name: 'Late' });
    await makeSubmission(admin.services, form, { createdAt: at('2026-06-30', '23:59:59.999') });
    await makeSubmission(admin.services, form, { createdAt: at('2026-07-01', '00:00:00.000') });
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const rows = await admin.services.db.em.fork().transactional(async (tx) => {
        await tx.execute(`set local time zone '${zone}'`, [], 'run');
        return readSubmissionCounts(tx, '2026-06-30');
      });
      const late = rows.filter((row) => row.formId === form.id).map(({ day, count }) => ({ day, count }));
      expect(late.sort((a, b) => a.day.localeCompare(b.day))).toEqual([
        { day: '2026-06-30', count: 1 },
        { day: '2026-07-01', count: 1 },
      ]);
    }
  });

  it('lists refusals per code and day, most frequent first, zero days filled', async () => {
    const days = lastUtcDays(31);
    await addRefusalCounts(admin.services.db, [
      { day: days[0]!, code: 'token_invalid', count: 100 },
      { day: days[1]!, code: 'token_invalid', count: 2 },
      { day: days[30]!, code: 'token_invalid', count: 1 },
      { day: days[30]!, code: 'api_key_missing', count: 4 },
      { day: days[30]!, code: 'api_key_missing', count: 3 },
    ]);
    const result = await admin.gql<any>(
      '{ refusalStats { days codes { code title total days { day count } } } }',
      {},
      token,
    );
    expect(result.errors).toBeUndefined();
    const period = days.slice(1);
    const series = (counts: Record<string, number>) => period.map((day) => ({ day, count: counts[day] ?? 0 }));
    expect(result.data.refusalStats).toEqual({
      days: period,
      codes: [
        { code: 'api_key_missing', title: 'API key missing', total: 7, days: series({ [days[30]!]: 7 }) },
        {
          code: 'token_invalid',
          title: 'Site token invalid',
          total: 3,
          days: series({ [days[1]!]: 2, [days[30]!]: 1 }),
        },
      ],
    });
  });

  it.each([0, -1, 91, 100000])('refuses days: %i with BAD_USER_INPUT', async (days) => {
    for (const field of ['submissionStats', 'refusalStats']) {
      const result = await admin.gql<any>(`query($days: Int!) { ${field}(days: $days) { days } }`, { days }, token);
      expect(result.data).toBeNull();
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'days' });
      expect(result.errors?.[0]?.message).toBe('days must be between 1 and 90');
    }
  });

  it('answers only a signed-in administrator', async () => {
    const result = await admin.gql<any>('{ submissionStats { days } refusalStats { days } }');
    expect(result.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
