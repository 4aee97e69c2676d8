import { Migration } from '@mikro-orm/migrations';

// Notification e-mails may list each file with an expiring download link (issue #36), when the
// form says so; every existing form keeps names only.
export class Migration20261130130000_notify_file_links extends Migration {

  override name = 'Migration20261130130000_notify_file_links';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add column "notify_file_links" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "forms" drop column "notify_file_links";`);
  }

}
