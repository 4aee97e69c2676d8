import { Migration } from '@mikro-orm/migrations';

// Sign-in (issue #24), time-based one-time codes: a member's TOTP secret (sealed with a key derived
// from TOKEN_ENCRYPTION_KEY, like webhook secrets; pending while enrolment is not yet confirmed),
// the last time step a code was accepted at (a code is used once), single-use recovery codes
// (stored as keyed hashes), the short-lived challenges between the password and the code, and the
// team's policy (one row).
export class Migration20261126181000_two_factor extends Migration {

  override name = 'Migration20261126181000_two_factor';

  override up(): void | Promise<void> {
    this.addSql(`alter table "admin_users" add column "totp_secret" text null, add column "totp_pending_secret" text null, add column "totp_enabled_at" timestamptz null, add column "totp_last_step" bigint null;`);
    this.addSql(`create table "recovery_codes" ("id" uuid not null, "admin_id" uuid not null, "code_hash" varchar(64) not null, "used_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "recovery_codes" add constraint "recovery_codes_admin_id_code_hash_unique" unique ("admin_id", "code_hash");`);
    this.addSql(`alter table "recovery_codes" add constraint "recovery_codes_admin_id_foreign" foreign key ("admin_id") references "admin_users" ("id") on delete cascade;`);
    this.addSql(`create table "second_factor_challenges" ("id" uuid not null, "admin_id" uuid not null, "secret_hash" varchar(64) not null, "failed_attempts" int not null default 0, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "second_factor_challenges" add constraint "second_factor_challenges_secret_hash_unique" unique ("secret_hash");`);
    this.addSql(`create index "second_factor_challenges_expires_at_index" on "second_factor_challenges" ("expires_at");`);
    this.addSql(`alter table "second_factor_challenges" add constraint "second_factor_challenges_admin_id_foreign" foreign key ("admin_id") references "admin_users" ("id") on delete cascade;`);
    this.addSql(`create table "team_policy" ("id" int not null, "require_second_factor" boolean not null default false, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`insert into "team_policy" ("id", "require_second_factor", "updated_at") values (1, false, now());`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "team_policy" cascade;`);
    this.addSql(`drop table if exists "second_factor_challenges" cascade;`);
    this.addSql(`drop table if exists "recovery_codes" cascade;`);
    this.addSql(`alter table "admin_users" drop column "totp_secret", drop column "totp_pending_secret", drop column "totp_enabled_at", drop column "totp_last_step";`);
  }

}
