import type { Em } from '@intake/shared/db';
import { FormSchema, SubmissionSchema, type StoredFile, type Submission } from '@intake/shared/entities';
import { notFound } from '../errors.js';
import { submissionFilterSql, type SubmissionFilter, type SqlCondition } from '../lib/submission-filter.js';
import { filesBySubmission } from './files-by-submission.js';
import { inboxStateSql, type InboxStateFilter } from './inbox-state-filter.js';

export interface SubmissionPageQuery {
  formId: string;
  /** The Spam view instead of the inbox. */
  spam: boolean;
  filter: SubmissionFilter;
  /** Status, assignee and unread: the list's own (exports take `filter` only). */
  state: InboxStateFilter;
  pageSize: number;
  /** The sort key of the last submission of the previous page. */
  after: { createdAt: Date; id: string } | null;
}

export interface SubmissionWithFiles {
  submission: Submission;
  files: StoredFile[];
}

export interface SubmissionPage {
  /** The view and its filter as SQL: what `totalCount` counts. */
  selection: SqlCondition;
  submissions: SubmissionWithFiles[];
  hasNextPage: boolean;
}

/**
 * What `em.find` would load: every property but the lazy ones (`searchText`, the values a second
 * time, which only the WHERE reads). A query builder otherwise selects `s.*`.
 */
function loadedColumns(em: Em): string[] {
  return Object.values(em.getMetadata(SubmissionSchema).properties)
    .filter((property) => property.lazy !== true && property.fieldNames !== undefined)
    .map((property) => property.name);
}

/** A page of a form's submissions, newest first; forms that were deleted included (their submissions are kept). */
export async function listSubmissions(em: Em, query: SubmissionPageQuery): Promise<SubmissionPage> {
  const form = await em.findOne(FormSchema, { id: query.formId });
  if (form === null) {
    throw notFound('Form');
  }
  const shared = submissionFilterSql(form.id, query.spam, query.filter, 's');
  const state = inboxStateSql(query.state, 's');
  const selection = { sql: `${shared.sql} and ${state.sql}`, params: [...shared.params, ...state.params] };
  // Keyset pagination on (createdAt, id), served by the (form, spam, created_at, id) index; one extra
  // row tells whether there is a next page.
  const builder = em
    .createQueryBuilder(SubmissionSchema, 's')
    // The names come from the entity's own metadata; typed as the whole entity, which is what loads.
    .select(loadedColumns(em) as never)
    .where(selection.sql, selection.params);
  if (query.after !== null) {
    builder.andWhere('(s.created_at, s.id) < (?::timestamptz, ?::uuid)', [query.after.createdAt, query.after.id]);
  }
  const rows = await builder
    .orderBy({ createdAt: 'desc', id: 'desc' })
    .limit(query.pageSize + 1)
    .getResultList();
  const page = rows.slice(0, query.pageSize);
  const files = await filesBySubmission(
    em,
    page.map((submission) => submission.id),
  );
  return {
    selection,
    submissions: page.map((submission) => ({ submission, files: files.get(submission.id) ?? [] })),
    hasNextPage: rows.length > query.pageSize,
  };
}
