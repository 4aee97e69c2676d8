import { Migration } from '@mikro-orm/migrations';

// Teams (issue #23): every account becomes a member with a name, a role and a status, and members
// of role `member` get per-site grants. Every existing account was an administrator with all
// power, so each becomes an owner; API tokens whose creator is gone are given to the first owner
// (a token now acts for its member and can never do more than that member).
export class Migration20261126120000_members extends Migration {

  override name = 'Migration20261126120000_members';

  override up(): void | Promise<void> {
    this.addSql(`alter table "admin_users" add column "name" varchar(200) not null default '', add column "role" varchar(16) not null default 'member', add column "status" varchar(16) not null default 'active';`);
    this.addSql(`update "admin_users" set "role" = 'owner';`);
    this.addSql(`alter table "admin_users" add constraint "admin_users_role_check" check ("role" in ('owner', 'admin', 'member'));`);
    this.addSql(`alter table "admin_users" add constraint "admin_users_status_check" check ("status" in ('invited', 'active', 'disabled'));`);
    this.addSql(`create table "member_site_grants" ("id" uuid not null, "member_id" uuid not null, "site_id" uuid not null, "level" varchar(16) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "member_site_grants" add constraint "member_site_grants_level_check" check ("level" in ('read', 'manage'));`);
    this.addSql(`alter table "member_site_grants" add constraint "member_site_grants_member_id_site_id_unique" unique ("member_id", "site_id");`);
    this.addSql(`create index "member_site_grants_site_id_index" on "member_site_grants" ("site_id");`);
    this.addSql(`alter table "member_site_grants" add constraint "member_site_grants_member_id_foreign" foreign key ("member_id") references "admin_users" ("id") on delete cascade;`);
    this.addSql(`alter table "member_site_grants" add constraint "member_site_grants_site_id_foreign" foreign key ("site_id") references "sites" ("id") on delete cascade;`);
    this.addSql(`update "api_tokens" set "created_by_id" = (select "id" from "admin_users" order by "created_at", "id" limit 1) where "created_by_id" is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "member_site_grants" cascade;`);
    this.addSql(`alter table "admin_users" drop constraint "admin_users_role_check", drop constraint "admin_users_status_check";`);
    this.addSql(`alter table "admin_users" drop column "name", drop column "role", drop column "status";`);
  }

}
