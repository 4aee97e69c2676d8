import { Migration } from '@mikro-orm/migrations';

// Spam protection (issue #14): each form's honeypot, CAPTCHA, duplicate and content-rule settings,
// all off by default; and on each submission whether it is spam, why, and the hash of its content
// that the duplicate filter looks up.
export class Migration20261123230000_spam_protection extends Migration {

  override name = 'Migration20261123230000_spam_protection';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add "honeypot_fields" text[] null, add "captcha_provider" varchar(16) null, add "captcha_sealed_secret" text null, add "captcha_response_field" varchar(100) null, add "captcha_min_score" real null, add "captcha_unavailable_as_spam" boolean not null default false, add "duplicate_window_seconds" int null, add "max_links" int null, add "blocked_words" text[] null;`);
    this.addSql(`alter table "forms" add constraint "forms_captcha_provider_check" check ("captcha_provider" in ('turnstile', 'hcaptcha', 'recaptcha_v2', 'recaptcha_v3'));`);
    this.addSql(`alter table "submissions" add "spam" boolean not null default false, add "spam_reason" varchar(32) null, add "content_hash" varchar(64) null;`);
    this.addSql(`create index "submissions_form_spam_created_at_index" on "submissions" ("form_id", "spam", "created_at", "id");`);
    this.addSql(`create index "submissions_form_content_hash_index" on "submissions" ("form_id", "content_hash", "created_at");`);
    this.addSql(`create index "submissions_spam_created_at_index" on "submissions" ("spam", "created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "submissions_spam_created_at_index";`);
    this.addSql(`drop index "submissions_form_content_hash_index";`);
    this.addSql(`drop index "submissions_form_spam_created_at_index";`);
    this.addSql(`alter table "submissions" drop column "spam", drop column "spam_reason", drop column "content_hash";`);
    this.addSql(`alter table "forms" drop constraint "forms_captcha_provider_check";`);
    this.addSql(`alter table "forms" drop column "honeypot_fields", drop column "captcha_provider", drop column "captcha_sealed_secret", drop column "captcha_response_field", drop column "captcha_min_score", drop column "captcha_unavailable_as_spam", drop column "duplicate_window_seconds", drop column "max_links", drop column "blocked_words";`);
  }

}
