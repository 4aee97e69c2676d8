// Rows of counts per day become one series per form or code, every day of the period present.
import { ERROR_CATALOGUE, type ErrorCode } from '@intake/shared/errors';
import { fillDays, type RefusalCountRow, type SubmissionCountRow } from '@intake/shared/statistics';
import type {
  DailyCountType,
  FormSpamTotalType,
  FormSubmissionSeriesType,
  RefusalSeriesType,
  RefusalStatsType,
  SubmissionStatsType,
} from './statistics.type.js';
import { GRAPHQL_INT_MAX } from '../validation/fields.js';

const sum = (counts: readonly DailyCountType[]) =>
  Math.min(
    counts.reduce((total, entry) => total + entry.count, 0),
    GRAPHQL_INT_MAX,
  );

/** Adds each row's count to its group's day. */
function groupByDay<R extends { day: string }>(
  rows: readonly R[],
  groupOf: (row: R) => string,
  countOf: (row: R) => number,
): Map<string, Map<string, number>> {
  const groups = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const byDay = groups.get(groupOf(row)) ?? new Map<string, number>();
    byDay.set(row.day, (byDay.get(row.day) ?? 0) + countOf(row));
    groups.set(groupOf(row), byDay);
  }
  return groups;
}

export function presentSubmissionStats(days: string[], rows: readonly SubmissionCountRow[]): SubmissionStatsType {
  const inbox = groupByDay(
    rows.filter((row) => row.count > 0),
    (row) => row.formId,
    (row) => row.count,
  );
  const forms: FormSubmissionSeriesType[] = [...inbox].map(([formId, byDay]) => {
    const row = rows.find((candidate) => candidate.formId === formId)!;
    const series = fillDays(days, byDay);
    return {
      formId,
      formName: row.formName,
      siteId: row.siteId,
      siteName: row.siteName,
      total: sum(series),
      days: series,
    };
  });
  forms.sort(busiestFirst);
  const spam = groupByDay(
    rows,
    () => 'all',
    (row) => row.spam,
  ).get('all');
  return { days, forms, spam: fillDays(days, spam ?? new Map()), spamForms: spamByForm(rows) };
}

function busiestFirst(a: FormSpamTotalType, b: FormSpamTotalType): number {
  return (
    b.total - a.total ||
    a.siteName.localeCompare(b.siteName) ||
    a.formName.localeCompare(b.formName) ||
    a.formId.localeCompare(b.formId)
  );
}

/** Each form's spam over the period, forms without any left out. */
function spamByForm(rows: readonly SubmissionCountRow[]): FormSpamTotalType[] {
  const totals = new Map<string, FormSpamTotalType>();
  for (const row of rows.filter((candidate) => candidate.spam > 0)) {
    const entry = totals.get(row.formId) ?? {
      formId: row.formId,
      formName: row.formName,
      siteId: row.siteId,
      siteName: row.siteName,
      total: 0,
    };
    entry.total = Math.min(entry.total + row.spam, GRAPHQL_INT_MAX);
    totals.set(row.formId, entry);
  }
  return [...totals.values()].sort(busiestFirst);
}

export function presentRefusalStats(days: string[], rows: readonly RefusalCountRow[]): RefusalStatsType {
  const codes: RefusalSeriesType[] = [
    ...groupByDay(
      rows,
      (row) => row.code,
      (row) => row.count,
    ),
  ].map(([code, byDay]) => {
    const series = fillDays(days, byDay);
    // A code a newer gateway wrote and this catalogue does not know yet is shown as it is.
    const title = Object.hasOwn(ERROR_CATALOGUE, code) ? ERROR_CATALOGUE[code as ErrorCode].title : code;
    return { code, title, total: sum(series), days: series };
  });
  codes.sort((a, b) => b.total - a.total || a.code.localeCompare(b.code));
  return { days, codes };
}
