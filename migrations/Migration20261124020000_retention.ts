import { Migration } from '@mikro-orm/migrations';

// Retention and erasure (issue #13): each form's optional retention in days. The sweep's lookups
// (one form's submissions older than a date) use the existing (form_id, created_at, id) index.
export class Migration20261124020000_retention extends Migration {

  override name = 'Migration20261124020000_retention';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add "retention_days" int null;`);
    // A zero or negative retention would delete every submission of the form at the next sweep.
    this.addSql(`alter table "forms" add constraint "forms_retention_days_check" check (retention_days > 0);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "forms" drop constraint "forms_retention_days_check";`);
    this.addSql(`alter table "forms" drop column "retention_days";`);
  }

}
