// The site and form of a request may come from the gateway's cache, which hears of a change a few
// milliseconds after it commits (longer on a busy machine). The write re-checks what security rests
// on — the token's control code, the site not deleted, the form enabled and not deleted — in the
// database, so a submission sent after a rotation, disabling or deletion was answered is refused
// even when the news has not reached this process yet. On the one-row path the check rides inside
// the INSERT itself: no extra round trip.
import { AppError, type Em, type Site, type Submission } from '@intake/shared';

const ACCEPTING = `exists (select 1 from "forms" f join "sites" s on s."id" = f."site_id"
  where f."id" = ? and f."enabled" and f."deleted_at" is null and s."deleted_at" is null and s."control_code" = ?)`;

const GUARDED_INSERT = `insert into "submissions"
  ("id", "form_id", "data", "created_at", "idempotency_key", "spam", "spam_reason", "content_hash")
  select ?::uuid, ?::uuid, ?::jsonb, ?::timestamptz, ?, ?, ?, ? where ${ACCEPTING}`;

/** Inserts the submission only if its form and site still accept it, in one statement. */
export async function insertIfAccepting(em: Em, submission: Submission, formId: string, site: Site): Promise<boolean> {
  try {
    const result = await em
      .getConnection()
      .execute<{ affectedRows: number }>(
        GUARDED_INSERT,
        [
          submission.id,
          formId,
          JSON.stringify(submission.data),
          submission.createdAt,
          submission.idempotencyKey ?? null,
          submission.spam,
          submission.spamReason ?? null,
          submission.contentHash ?? null,
          formId,
          site.controlCode,
        ],
        'run',
      );
    return result.affectedRows === 1;
  } catch (error) {
    // The unique idempotency key surfaces as the ORM's exception, as from a flush.
    throw em.getDriver().convertException(error as Error);
  }
}

/** The same check as a query, for the path that writes several rows in one transaction. */
export async function isStillAccepting(em: Em, formId: string, site: Site): Promise<boolean> {
  // em.execute: inside the caller's transaction when there is one (PGlite has a single connection).
  const rows = await em.execute<{ accepting: boolean }[]>(`select ${ACCEPTING} as "accepting"`, [
    formId,
    site.controlCode,
  ]);
  return rows[0]?.accepting === true;
}

/** Why a submission was refused at the write: read fresh, answered as the middleware would have. */
export async function refusalOf(em: Em, formId: string, site: Site): Promise<AppError> {
  const rows = await em.execute<{ live: boolean }[]>(
    'select ("deleted_at" is null and "control_code" = ?) as "live" from "sites" where "id" = ?',
    [site.controlCode, site.id],
  );
  if (rows[0]?.live !== true) {
    return new AppError('token_invalid', 'The site token is not valid.');
  }
  return new AppError('form_forbidden', 'This form does not accept submissions with these credentials.');
}
