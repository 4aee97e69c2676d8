import { Migration } from '@mikro-orm/migrations';

// Which values the XSS sanitiser changed beyond escaping (issue #21): the JSON paths of the strings
// whose markup was removed, per submission, so the console, the admin API, webhooks and exports can
// say so. A constant default adds the column without rewriting the table; submissions stored before
// it read as unchanged, since nobody recorded otherwise.
export class Migration20261126100000_sanitized_fields extends Migration {

  override name = 'Migration20261126100000_sanitized_fields';

  override up(): void | Promise<void> {
    this.addSql(`alter table "submissions" add "sanitized_fields" jsonb not null default '[]';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "submissions" drop column "sanitized_fields";`);
  }

}
