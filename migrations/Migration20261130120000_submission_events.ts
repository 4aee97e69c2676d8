import { Migration } from '@mikro-orm/migrations';

// Hand-written: tells every admin process, through NOTIFY on commit, that a submission arrived,
// changed (status, assignee, spam, a note) or was deleted, whatever wrote it (the gateway's group
// commit, the console, the CLI, a psql prompt), so the console's live updates follow
// (docs/console.md#live-updates). The payload holds ids only, never a submitted value or a note's
// text. A submission deleted with its form (cascade) finds no form row here and tells nothing: the
// form's own trigger tells its site's gateways, and the console's views of it are gone.
export class Migration20261130120000_submission_events extends Migration {

  override name = 'Migration20261130120000_submission_events';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "intake_notify_submission_event"() returns trigger language plpgsql as $$
declare
  row_submission_id uuid;
  row_form_id uuid;
  event_kind text;
  form_site_id uuid;
begin
  if TG_TABLE_NAME = 'submission_notes' then
    row_submission_id := coalesce(NEW.submission_id, OLD.submission_id);
    select s.form_id into row_form_id from submissions s where s.id = row_submission_id;
    event_kind := 'changed';
  elsif TG_OP = 'DELETE' then
    row_submission_id := OLD.id;
    row_form_id := OLD.form_id;
    event_kind := 'deleted';
  else
    row_submission_id := NEW.id;
    row_form_id := NEW.form_id;
    event_kind := case when TG_OP = 'INSERT' then 'created' else 'changed' end;
  end if;
  select f.site_id into form_site_id from forms f where f.id = row_form_id;
  if form_site_id is not null then
    perform pg_notify('intake_submission_events', json_build_object(
      'siteId', form_site_id, 'formId', row_form_id, 'submissionId', row_submission_id, 'kind', event_kind)::text);
  end if;
  return null;
end;
$$;`);
    this.addSql(`create trigger "submissions_notify_insert" after insert or delete on "submissions" for each row execute function "intake_notify_submission_event"();`);
    // Only what the inbox shows: an erasure rewriting data, or a retention pass, tells nothing new.
    this.addSql(`create trigger "submissions_notify_update" after update of "status", "assignee_id", "spam" on "submissions" for each row when (OLD.status is distinct from NEW.status or OLD.assignee_id is distinct from NEW.assignee_id or OLD.spam is distinct from NEW.spam) execute function "intake_notify_submission_event"();`);
    this.addSql(`create trigger "submission_notes_notify_change" after insert or delete on "submission_notes" for each row execute function "intake_notify_submission_event"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "submission_notes_notify_change" on "submission_notes";`);
    this.addSql(`drop trigger if exists "submissions_notify_update" on "submissions";`);
    this.addSql(`drop trigger if exists "submissions_notify_insert" on "submissions";`);
    this.addSql(`drop function if exists "intake_notify_submission_event"();`);
  }

}
