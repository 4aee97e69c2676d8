import { Migration } from '@mikro-orm/migrations';

export class Migration20261121123748_initial extends Migration {

  override name = 'Migration20261121123748_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "admin_users" ("id" uuid not null, "email" varchar(320) not null, "password_hash" varchar(255) not null, "password_changed_at" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "admin_users" add constraint "admin_users_email_unique" unique ("email");`);

    this.addSql(`create table "api_tokens" ("id" uuid not null, "name" varchar(200) not null, "token_hash" varchar(64) not null, "created_by_id" uuid null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "sites" ("id" uuid not null, "name" varchar(200) not null, "domain" varchar(253) null, "control_code" varchar(64) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, primary key ("id"));`);

    this.addSql(`create table "forms" ("id" uuid not null, "site_id" uuid not null, "name" varchar(200) not null, "code" varchar(64) not null, "enabled" boolean not null default true, "allowed_mime_types" text[] null, "max_file_size" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "forms_site_id_index" on "forms" ("site_id");`);
    this.addSql(`alter table "forms" add constraint "forms_code_unique" unique ("code");`);

    this.addSql(`create table "submissions" ("id" uuid not null, "form_id" uuid not null, "data" jsonb not null, "created_at" timestamptz not null, "idempotency_key" varchar(255) null, primary key ("id"));`);
    this.addSql(`create index "submissions_form_created_at_index" on "submissions" ("form_id", "created_at", "id");`);
    this.addSql(`alter table "submissions" add constraint "submissions_form_idempotency_key_unique" unique ("form_id", "idempotency_key");`);

    this.addSql(`create table "stored_files" ("id" uuid not null, "submission_id" uuid not null, "position" int not null, "field" varchar(255) not null, "name" varchar(255) not null, "mime_type" varchar(255) not null, "size" int not null, "sha256" varchar(64) not null, "storage_key" varchar(128) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "stored_files_submission_id_index" on "stored_files" ("submission_id");`);
    this.addSql(`alter table "stored_files" add constraint "stored_files_storage_key_unique" unique ("storage_key");`);

    this.addSql(`alter table "api_tokens" add constraint "api_tokens_created_by_id_foreign" foreign key ("created_by_id") references "admin_users" ("id") on delete set null;`);

    this.addSql(`alter table "forms" add constraint "forms_site_id_foreign" foreign key ("site_id") references "sites" ("id") on delete cascade;`);

    this.addSql(`alter table "submissions" add constraint "submissions_form_id_foreign" foreign key ("form_id") references "forms" ("id") on delete cascade;`);

    this.addSql(`alter table "stored_files" add constraint "stored_files_submission_id_foreign" foreign key ("submission_id") references "submissions" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_created_by_id_foreign";`);
    this.addSql(`alter table "forms" drop constraint "forms_site_id_foreign";`);
    this.addSql(`alter table "submissions" drop constraint "submissions_form_id_foreign";`);
    this.addSql(`alter table "stored_files" drop constraint "stored_files_submission_id_foreign";`);

    this.addSql(`drop table if exists "admin_users" cascade;`);
    this.addSql(`drop table if exists "api_tokens" cascade;`);
    this.addSql(`drop table if exists "sites" cascade;`);
    this.addSql(`drop table if exists "forms" cascade;`);
    this.addSql(`drop table if exists "submissions" cascade;`);
    this.addSql(`drop table if exists "stored_files" cascade;`);
  }

}
