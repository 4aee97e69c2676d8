import { Migration } from '@mikro-orm/migrations';

// Sign-in (issue #24), the team's single sign-on policy: one row, whether people who can use single
// sign-on may also sign in with a password. Passwords stay allowed until an owner forbids them.
export class Migration20261126182000_sso_policy extends Migration {

  override name = 'Migration20261126182000_sso_policy';

  override up(): void | Promise<void> {
    this.addSql(`create table "sso_policy" ("id" int not null, "password_sign_in" boolean not null default true, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`insert into "sso_policy" ("id", "password_sign_in", "updated_at") values (1, true, now());`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sso_policy" cascade;`);
  }

}
