import { Migration } from '@mikro-orm/migrations';

// Browser posting (issue #35): a form may take posts straight from visitors' browsers on the
// origins it lists, with a proof-of-work challenge, its own limits and thank-you addresses. Off on
// every existing form. Answered challenges are kept until they expire, so none is used twice.
export class Migration20261128120000_browser_posting extends Migration {

  override name = 'Migration20261128120000_browser_posting';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add column "browser_posting" boolean not null default false, add column "browser_origins" text[] null, add column "browser_thank_you_urls" text[] null, add column "browser_challenge" varchar(16) not null default 'required', add column "browser_challenge_difficulty" int null, add column "browser_texts" jsonb null, add column "browser_max_body_size" int null, add column "browser_max_file_size" int null, add column "browser_max_files" int null, add column "browser_reserved_fields" boolean not null default true;`);
    this.addSql(`alter table "forms" add constraint "forms_browser_challenge_check" check ("browser_challenge" in ('required', 'record_only', 'off'));`);
    this.addSql(`create table "used_challenges" ("nonce" varchar(64) not null, "expires_at" timestamptz not null, primary key ("nonce"));`);
    this.addSql(`create index "used_challenges_expires_at_index" on "used_challenges" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "used_challenges" cascade;`);
    this.addSql(`alter table "forms" drop constraint "forms_browser_challenge_check";`);
    this.addSql(`alter table "forms" drop column "browser_posting", drop column "browser_origins", drop column "browser_thank_you_urls", drop column "browser_challenge", drop column "browser_challenge_difficulty", drop column "browser_texts", drop column "browser_max_body_size", drop column "browser_max_file_size", drop column "browser_max_files", drop column "browser_reserved_fields";`);
  }

}
