// Which submissions of a form's inbox or Spam view a list shows by their inbox state: status
// (every status but `archived` unless asked), assignee, and unread for the caller. Apart from the
// text and date filter (lib/submission-filter.ts), which exports share; these are the list's only.
import type { SubmissionStatus } from '@intake/shared/entities';
import type { SqlCondition } from '../lib/submission-filter.js';

export interface InboxStateFilter {
  /** Null: the default view, every status but `archived`. */
  statuses: readonly SubmissionStatus[] | null;
  /** Only those assigned to this member; null: anyone's and nobody's. */
  assigneeId: string | null;
  /** Only those this member has not read; null: read or not. */
  unreadBy: string | null;
}

export const DEFAULT_INBOX_VIEW: InboxStateFilter = Object.freeze({ statuses: null, assigneeId: null, unreadBy: null });

/** The condition on `alias` (the submissions table's alias, a plain identifier the caller chose). */
export function inboxStateSql(filter: InboxStateFilter, alias: string): SqlCondition {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.statuses === null) {
    conditions.push(`${alias}.status <> 'archived'`);
  } else {
    conditions.push(`${alias}.status in (${filter.statuses.map(() => '?').join(', ') || 'null'})`);
    params.push(...filter.statuses);
  }
  if (filter.assigneeId !== null) {
    conditions.push(`${alias}.assignee_id = ?`);
    params.push(filter.assigneeId);
  }
  if (filter.unreadBy !== null) {
    conditions.push(
      `not exists (select 1 from submission_reads as inbox_read where inbox_read.submission_id = ${alias}.id and inbox_read.member_id = ?)`,
    );
    params.push(filter.unreadBy);
  }
  return { sql: conditions.join(' and '), params };
}
