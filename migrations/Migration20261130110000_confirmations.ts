import { Migration } from '@mikro-orm/migrations';

// The confirmation to the person who submitted (issue #36, docs/confirmations.md): off on every
// existing form; a delivery channel of its own; the hourly counts of its rate limits.
export class Migration20261130110000_confirmations extends Migration {

  override name = 'Migration20261130110000_confirmations';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add column "confirmation_enabled" boolean not null default false, add column "confirmation_email_field" varchar(100) null, add column "confirmation_subject" varchar(200) null, add column "confirmation_template" text null, add column "confirmation_safe_fields" text[] null;`);
    this.addSql(`alter table "deliveries" drop constraint "deliveries_channel_check";`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_channel_check" check ("channel" in ('webhook', 'email', 'confirmation'));`);
    this.addSql(`create table "confirmation_counts" ("scope" varchar(80) not null, "window_start" timestamptz not null, "count" int not null, primary key ("scope", "window_start"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "confirmation_counts" cascade;`);
    this.addSql(`delete from "deliveries" where "channel" = 'confirmation';`);
    this.addSql(`alter table "deliveries" drop constraint "deliveries_channel_check";`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_channel_check" check ("channel" in ('webhook', 'email'));`);
    this.addSql(`alter table "forms" drop column "confirmation_enabled", drop column "confirmation_email_field", drop column "confirmation_subject", drop column "confirmation_template", drop column "confirmation_safe_fields";`);
  }

}
