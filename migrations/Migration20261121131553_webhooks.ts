import { Migration } from '@mikro-orm/migrations';

export class Migration20261121131553_webhooks extends Migration {

  override name = 'Migration20261121131553_webhooks';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhooks" ("id" uuid not null, "form_id" uuid not null, "url" varchar(2048) not null, "description" varchar(500) null, "sealed_secret" varchar(255) not null, "enabled" boolean not null default true, "disabled_at" timestamptz null, "disabled_reason" varchar(200) null, "failing_since" timestamptz null, "last_success_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "webhooks_form_id_index" on "webhooks" ("form_id");`);

    this.addSql(`create table "deliveries" ("id" uuid not null, "channel" text not null, "form_id" uuid not null, "webhook_id" uuid null, "submission_id" uuid null, "event_type" varchar(64) not null, "recipients" text[] null, "payload" jsonb null, "status" text not null default 'pending', "attempt_count" int not null default 0, "retry_step" int not null default 0, "next_attempt_at" timestamptz not null, "locked_until" timestamptz null, "lock_token" uuid null, "last_attempt_at" timestamptz null, "completed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "deliveries_form_id_index" on "deliveries" ("form_id");`);
    this.addSql(`create index "deliveries_webhook_id_index" on "deliveries" ("webhook_id");`);
    this.addSql(`create index "deliveries_submission_id_index" on "deliveries" ("submission_id");`);
    this.addSql(`create index "deliveries_status_next_attempt_at_index" on "deliveries" ("status", "next_attempt_at");`);

    this.addSql(`create table "delivery_attempts" ("id" uuid not null, "delivery_id" uuid not null, "number" int not null, "started_at" timestamptz not null, "duration_ms" int not null, "succeeded" boolean not null, "status_code" int null, "error" varchar(300) null, "response" text null, primary key ("id"));`);
    this.addSql(`create index "delivery_attempts_delivery_id_index" on "delivery_attempts" ("delivery_id");`);

    this.addSql(`alter table "forms" add "notify_emails" text[] null;`);

    this.addSql(`alter table "webhooks" add constraint "webhooks_form_id_foreign" foreign key ("form_id") references "forms" ("id") on delete cascade;`);

    this.addSql(`alter table "deliveries" add constraint "deliveries_form_id_foreign" foreign key ("form_id") references "forms" ("id") on delete cascade;`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on delete cascade;`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_submission_id_foreign" foreign key ("submission_id") references "submissions" ("id") on delete cascade;`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_channel_check" check ("channel" in ('webhook', 'email'));`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_status_check" check ("status" in ('pending', 'succeeded', 'failed'));`);

    this.addSql(`alter table "delivery_attempts" add constraint "delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "deliveries" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "deliveries" drop constraint "deliveries_webhook_id_foreign";`);
    this.addSql(`alter table "delivery_attempts" drop constraint "delivery_attempts_delivery_id_foreign";`);

    this.addSql(`drop table if exists "webhooks" cascade;`);
    this.addSql(`drop table if exists "deliveries" cascade;`);
    this.addSql(`drop table if exists "delivery_attempts" cascade;`);

    this.addSql(`alter table "forms" drop column "notify_emails";`);
  }

}
