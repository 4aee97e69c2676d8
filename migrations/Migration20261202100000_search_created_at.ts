import { Migration } from '@mikro-orm/migrations';

// Hand-written (issue #37): the search row carries its submission's `created_at`, so a text search
// with creation bounds (the console's "last 30 days") narrows the trigram match by the dates in the
// same bitmap scan (a BitmapAnd of the trigram GIN and the (form_id, created_at) b-tree) instead of
// rechecking every text match of the form first (docs/decisions/search-off-request-path.md).
// Existing rows take the date of their submission. Every writer of search rows sets it: the worker's
// indexer (shared/src/search), the data-change trigger replaced below, which now also follows a
// change of `created_at`, and the bench's seeder.
export class Migration20261202100000_search_created_at extends Migration {

  override name = 'Migration20261202100000_search_created_at';

  override up(): void | Promise<void> {
    this.addSql(`alter table "submission_search" add column "created_at" timestamptz null;`);
    this.addSql(`update "submission_search" as ss set "created_at" = s."created_at" from "submissions" as s where s."id" = ss."submission_id";`);
    this.addSql(`alter table "submission_search" alter column "created_at" set not null;`);
    this.addSql(`create index "submission_search_form_id_created_at_index" on "submission_search" ("form_id", "created_at");`);
    this.addSql(`create or replace function "intake_follow_submission_search"() returns trigger language plpgsql as $$
begin
  insert into "submission_search" ("submission_id", "form_id", "search_text", "created_at")
    values (NEW."id", NEW."form_id", coalesce(public.intake_submission_search_text(NEW."data"), ''), NEW."created_at")
    on conflict ("submission_id") do update set "search_text" = excluded."search_text", "created_at" = excluded."created_at";
  return null;
end;
$$;`);
    this.addSql(`drop trigger if exists "submissions_search_follows_data" on "submissions";`);
    this.addSql(`create trigger "submissions_search_follows_data" after update of "data", "created_at" on "submissions" for each row when (OLD."data" is distinct from NEW."data" or OLD."created_at" is distinct from NEW."created_at") execute function "intake_follow_submission_search"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "submissions_search_follows_data" on "submissions";`);
    this.addSql(`create or replace function "intake_follow_submission_search"() returns trigger language plpgsql as $$
begin
  insert into "submission_search" ("submission_id", "form_id", "search_text")
    values (NEW."id", NEW."form_id", coalesce(public.intake_submission_search_text(NEW."data"), ''))
    on conflict ("submission_id") do update set "search_text" = excluded."search_text";
  return null;
end;
$$;`);
    this.addSql(`create trigger "submissions_search_follows_data" after update of "data" on "submissions" for each row when (OLD."data" is distinct from NEW."data") execute function "intake_follow_submission_search"();`);
    this.addSql(`drop index if exists "submission_search_form_id_created_at_index";`);
    this.addSql(`alter table "submission_search" drop column "created_at";`);
  }

}
