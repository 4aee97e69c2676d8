import { Migration } from '@mikro-orm/migrations';

// Form shapes (issue #25): the fields a form takes, stored as the JSON Schema the gateway enforces
// (`json` keeps the declared order, which the console shows), and whether undeclared fields are
// refused or dropped. Every existing form has no shape and accepts every key, as before.
export class Migration20261126185000_form_shapes extends Migration {

  override name = 'Migration20261126185000_form_shapes';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add column "fields_schema" json null, add column "unknown_fields" varchar(8) not null default 'refuse';`);
    this.addSql(`alter table "forms" add constraint "forms_unknown_fields_check" check ("unknown_fields" in ('refuse', 'drop'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "forms" drop constraint "forms_unknown_fields_check";`);
    this.addSql(`alter table "forms" drop column "fields_schema", drop column "unknown_fields";`);
  }

}
