import { Migration } from '@mikro-orm/migrations';

// Hand-written: the search text leaves the submission row (issue #37; docs/decisions/search-off-request-path.md).
// The generated column and its trigram index were most of the row's insert cost. Now an INSERT into
// `submissions` only queues the new ids (a statement trigger, so every writer queues: the gateway's
// group commit, imports, seeders, psql), and the worker fills `submission_search` from the queue
// within about a second (shared/src/search). A change of `data` (erasure) recomputes its search row
// at once, in the same transaction: that path is rare and not the request's. Existing rows' text
// moves to the new table; down() puts the generated column back.
export class Migration20261201100000_search_off_request_path extends Migration {

  override name = 'Migration20261201100000_search_off_request_path';

  override up(): void | Promise<void> {
    this.addSql(`create table "submission_search" ("submission_id" uuid not null, "form_id" uuid not null, "search_text" text not null, constraint "submission_search_pkey" primary key ("submission_id"));`);
    this.addSql(`alter table "submission_search" add constraint "submission_search_submission_id_foreign" foreign key ("submission_id") references "submissions" ("id") on update cascade on delete cascade;`);
    // No foreign key: the queue row is written with its submission, and the worker drops a row whose submission is gone.
    this.addSql(`create table "submission_search_pending" ("submission_id" uuid not null, "form_id" uuid not null, constraint "submission_search_pending_pkey" primary key ("submission_id"));`);
    this.addSql(`insert into "submission_search" ("submission_id", "form_id", "search_text") select "id", "form_id", coalesce("search_text", '') from "submissions";`);
    this.addSql(`alter table "submissions" drop column "search_text";`);
    this.addSql(`create index "submission_search_search_text_trgm_index" on "submission_search" using gin ("search_text" gin_trgm_ops);`);
    this.addSql(`create or replace function "intake_queue_submission_search"() returns trigger language plpgsql as $$
begin
  insert into "submission_search_pending" ("submission_id", "form_id") select "id", "form_id" from "inserted_submissions";
  return null;
end;
$$;`);
    this.addSql(`create trigger "submissions_queue_search" after insert on "submissions" referencing new table as "inserted_submissions" for each statement execute function "intake_queue_submission_search"();`);
    // Upsert: a row still queued gets its text now, and the worker's later insert leaves it (on conflict do nothing).
    this.addSql(`create or replace function "intake_follow_submission_search"() returns trigger language plpgsql as $$
begin
  insert into "submission_search" ("submission_id", "form_id", "search_text")
    values (NEW."id", NEW."form_id", coalesce(public.intake_submission_search_text(NEW."data"), ''))
    on conflict ("submission_id") do update set "search_text" = excluded."search_text";
  return null;
end;
$$;`);
    this.addSql(`create trigger "submissions_search_follows_data" after update of "data" on "submissions" for each row when (OLD."data" is distinct from NEW."data") execute function "intake_follow_submission_search"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "submissions_search_follows_data" on "submissions";`);
    this.addSql(`drop trigger if exists "submissions_queue_search" on "submissions";`);
    this.addSql(`drop function if exists "intake_follow_submission_search"();`);
    this.addSql(`drop function if exists "intake_queue_submission_search"();`);
    this.addSql(`drop table if exists "submission_search_pending" cascade;`);
    this.addSql(`drop table if exists "submission_search" cascade;`);
    this.addSql(`alter table "submissions" add "search_text" text generated always as (public.intake_submission_search_text("data")) stored;`);
    this.addSql(`create index "submissions_search_text_trgm_index" on "submissions" using gin ("search_text" gin_trgm_ops);`);
  }

}
