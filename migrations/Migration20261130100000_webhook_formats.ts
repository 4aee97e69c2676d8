import { Migration } from '@mikro-orm/migrations';

// Chat notifications (issue #36): a webhook's requests are the signed Standard Webhooks event
// (every existing webhook) or a chat platform's own message format.
export class Migration20261130100000_webhook_formats extends Migration {

  override name = 'Migration20261130100000_webhook_formats';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhooks" add column "format" varchar(16) not null default 'standard';`);
    this.addSql(`alter table "webhooks" add constraint "webhooks_format_check" check ("format" in ('standard', 'slack', 'mattermost', 'teams', 'discord', 'google_chat'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhooks" drop constraint "webhooks_format_check";`);
    this.addSql(`alter table "webhooks" drop column "format";`);
  }

}
