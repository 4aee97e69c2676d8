import { Migration } from '@mikro-orm/migrations';

// Caps and a schedule per form (issue #36): at most N submissions, optionally N per sender's
// address, between an optional opening and closing time. Off on every existing form. The counts
// live in their own rows, added to with a guarded UPDATE in the submission's transaction.
export class Migration20261129130000_form_caps extends Migration {

  override name = 'Migration20261129130000_form_caps';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add column "max_submissions" int null, add column "max_submissions_per_address" int null, add column "cap_address_field" varchar(100) null, add column "opens_at" timestamptz null, add column "closes_at" timestamptz null;`);
    this.addSql(`alter table "forms" add constraint "forms_max_submissions_check" check (max_submissions > 0), add constraint "forms_max_submissions_per_address_check" check (max_submissions_per_address > 0), add constraint "forms_schedule_check" check (opens_at < closes_at);`);
    this.addSql(`create table "form_submission_counts" ("form_id" uuid not null, "scope" varchar(64) not null, "count" int not null, primary key ("form_id", "scope"));`);
    this.addSql(`alter table "form_submission_counts" add constraint "form_submission_counts_form_id_foreign" foreign key ("form_id") references "forms" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "form_submission_counts" cascade;`);
    this.addSql(`alter table "forms" drop constraint "forms_max_submissions_check", drop constraint "forms_max_submissions_per_address_check", drop constraint "forms_schedule_check";`);
    this.addSql(`alter table "forms" drop column "max_submissions", drop column "max_submissions_per_address", drop column "cap_address_field", drop column "opens_at", drop column "closes_at";`);
  }

}
