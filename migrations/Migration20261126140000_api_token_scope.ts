import { Migration } from '@mikro-orm/migrations';

// Teams (issue #23), API tokens with a scope and an end: a level (read, manage, admin), an optional
// list of sites and an expiry. Every token made before scopes carried all of its member's power
// for ever, so each becomes an admin-level token for every site with no end (docs/teams.md).
export class Migration20261126140000_api_token_scope extends Migration {

  override name = 'Migration20261126140000_api_token_scope';

  override up(): void | Promise<void> {
    this.addSql(`alter table "api_tokens" add column "level" varchar(16) not null default 'admin', add column "site_ids" jsonb null, add column "expires_at" timestamptz null;`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_level_check" check ("level" in ('read', 'manage', 'admin'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_level_check";`);
    this.addSql(`alter table "api_tokens" drop column "level", drop column "site_ids", drop column "expires_at";`);
  }

}
