import { Migration } from '@mikro-orm/migrations';

// Password reset links (issue #34): a member who forgot their password asks for a single-use,
// short-lived link by e-mail, or an owner or admin sends one. Only the sha256 of its token is kept.
export class Migration20261129110000_password_resets extends Migration {

  override name = 'Migration20261129110000_password_resets';

  override up(): void | Promise<void> {
    this.addSql(`create table "password_resets" ("id" uuid not null, "admin_id" uuid not null, "token_hash" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "password_resets_admin_id_index" on "password_resets" ("admin_id");`);
    this.addSql(`alter table "password_resets" add constraint "password_resets_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "password_resets_expires_at_index" on "password_resets" ("expires_at");`);
    this.addSql(`alter table "password_resets" add constraint "password_resets_admin_id_foreign" foreign key ("admin_id") references "admin_users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "password_resets" cascade;`);
  }

}
