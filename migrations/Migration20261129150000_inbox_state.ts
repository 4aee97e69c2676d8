import { Migration } from '@mikro-orm/migrations';

// The inbox's state per submission (issue #36): a status (every existing submission `new`), an
// optional assignee, the team's internal notes, and which member has read which submission.
export class Migration20261129150000_inbox_state extends Migration {

  override name = 'Migration20261129150000_inbox_state';

  override up(): void | Promise<void> {
    this.addSql(`alter table "submissions" add column "status" varchar(16) not null default 'new', add column "assignee_id" uuid null;`);
    this.addSql(`alter table "submissions" add constraint "submissions_status_check" check ("status" in ('new', 'open', 'done', 'archived'));`);
    this.addSql(`alter table "submissions" add constraint "submissions_assignee_id_foreign" foreign key ("assignee_id") references "admin_users" ("id") on delete set null;`);
    this.addSql(`create index "submissions_form_spam_status_index" on "submissions" ("form_id", "spam", "status");`);
    this.addSql(`create table "submission_notes" ("id" uuid not null, "submission_id" uuid not null, "author_id" uuid null, "text" text not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "submission_notes_submission_id_index" on "submission_notes" ("submission_id");`);
    this.addSql(`alter table "submission_notes" add constraint "submission_notes_submission_id_foreign" foreign key ("submission_id") references "submissions" ("id") on delete cascade;`);
    this.addSql(`alter table "submission_notes" add constraint "submission_notes_author_id_foreign" foreign key ("author_id") references "admin_users" ("id") on delete set null;`);
    this.addSql(`create table "submission_reads" ("submission_id" uuid not null, "member_id" uuid not null, "read_at" timestamptz not null, primary key ("submission_id", "member_id"));`);
    this.addSql(`create index "submission_reads_member_id_index" on "submission_reads" ("member_id");`);
    this.addSql(`alter table "submission_reads" add constraint "submission_reads_submission_id_foreign" foreign key ("submission_id") references "submissions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "submission_reads" add constraint "submission_reads_member_id_foreign" foreign key ("member_id") references "admin_users" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "submission_reads" cascade;`);
    this.addSql(`drop table if exists "submission_notes" cascade;`);
    this.addSql(`drop index "submissions_form_spam_status_index";`);
    this.addSql(`alter table "submissions" drop constraint "submissions_assignee_id_foreign", drop constraint "submissions_status_check";`);
    this.addSql(`alter table "submissions" drop column "status", drop column "assignee_id";`);
  }

}
