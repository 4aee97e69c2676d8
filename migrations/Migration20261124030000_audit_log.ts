import { Migration } from '@mikro-orm/migrations';

// The audit log (issue #13): one row per administrative action, who, what, which object, when,
// from where and with which request id. Insert-only, pruned by age (AUDIT_RETENTION_DAYS); no
// foreign keys, so the history of a deleted site or administrator stays readable.
export class Migration20261124030000_audit_log extends Migration {

  override name = 'Migration20261124030000_audit_log';

  override up(): void | Promise<void> {
    this.addSql(`create table "audit_log" ("id" uuid not null, "at" timestamptz not null, "actor_kind" varchar(16) not null, "actor_id" varchar(64) null, "actor_name" varchar(320) not null, "action" varchar(100) not null, "object_type" varchar(64) null, "object_id" varchar(100) null, "outcome" varchar(16) not null, "error_code" varchar(64) null, "address" varchar(64) null, "request_id" varchar(128) null, "details" jsonb null, primary key ("id"));`);
    this.addSql(`alter table "audit_log" add constraint "audit_log_actor_kind_check" check ("actor_kind" in ('admin', 'api_token', 'system', 'anonymous'));`);
    this.addSql(`alter table "audit_log" add constraint "audit_log_outcome_check" check ("outcome" in ('success', 'failure'));`);
    this.addSql(`create index "audit_log_at_id_index" on "audit_log" ("at", "id");`);
    this.addSql(`create index "audit_log_actor_id_at_index" on "audit_log" ("actor_id", "at");`);
    this.addSql(`create index "audit_log_action_at_index" on "audit_log" ("action", "at");`);
    this.addSql(`create index "audit_log_object_id_at_index" on "audit_log" ("object_id", "at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit_log" cascade;`);
  }

}
