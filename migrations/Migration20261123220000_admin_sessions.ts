import { Migration } from '@mikro-orm/migrations';

// Console sign-ins (HttpOnly cookie sessions) that sign-out ends server-side.
export class Migration20261123220000_admin_sessions extends Migration {

  override name = 'Migration20261123220000_admin_sessions';

  override up(): void | Promise<void> {
    this.addSql(`create table "admin_sessions" ("id" uuid not null, "admin_id" uuid not null, "secret_hash" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "admin_sessions" add constraint "admin_sessions_secret_hash_unique" unique ("secret_hash");`);
    this.addSql(`create index "admin_sessions_expires_at_index" on "admin_sessions" ("expires_at");`);
    this.addSql(`alter table "admin_sessions" add constraint "admin_sessions_admin_id_foreign" foreign key ("admin_id") references "admin_users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "admin_sessions" cascade;`);
  }

}
