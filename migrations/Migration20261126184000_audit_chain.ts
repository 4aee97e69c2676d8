import { Migration } from '@mikro-orm/migrations';

// The tamper-evident audit log (issue #26): every entry gets a sequence number, a keyed hash and
// a digest chained to the previous entry's; a one-row head (locked by every append, so the order
// is one even with several writers) and signed checkpoints. Existing entries are numbered here in
// the order they were written (by time, then id); their hashes need the server's key, which a
// migration does not hold, so the first write (or start) after this chains them (chainedSeq 0).
export class Migration20261126184000_audit_chain extends Migration {

  override name = 'Migration20261126184000_audit_chain';

  override up(): void | Promise<void> {
    this.addSql(`alter table "audit_log" add column "seq" bigint null, add column "hash" varchar(64) null, add column "digest" varchar(64) null;`);
    this.addSql(`update "audit_log" set "seq" = "numbered"."seq" from (select "id", row_number() over (order by "at", "id") as "seq" from "audit_log") as "numbered" where "audit_log"."id" = "numbered"."id";`);
    this.addSql(`alter table "audit_log" alter column "seq" set not null;`);
    this.addSql(`alter table "audit_log" add constraint "audit_log_seq_unique" unique ("seq");`);
    this.addSql(`create table "audit_chain_head" ("id" int not null, "seq" bigint not null, "hash" varchar(64) null, "digest" varchar(64) null, "chained_seq" bigint not null, "anchor_seq" bigint not null, "anchor_hash" varchar(64) null, "anchor_digest" varchar(64) null, "key_id" varchar(32) null, primary key ("id"));`);
    this.addSql(`insert into "audit_chain_head" ("id", "seq", "chained_seq", "anchor_seq") select 1, count(*), 0, 0 from "audit_log";`);
    this.addSql(`create table "audit_checkpoints" ("id" uuid not null, "kind" varchar(16) not null, "seq" bigint not null, "hash" varchar(64) not null, "digest" varchar(64) not null, "at" timestamptz not null, "signature" text null, primary key ("id"));`);
    this.addSql(`alter table "audit_checkpoints" add constraint "audit_checkpoints_kind_check" check ("kind" in ('checkpoint', 'anchor'));`);
    this.addSql(`create index "audit_checkpoints_seq_index" on "audit_checkpoints" ("seq");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "audit_checkpoints" cascade;`);
    this.addSql(`drop table if exists "audit_chain_head" cascade;`);
    this.addSql(`alter table "audit_log" drop constraint "audit_log_seq_unique";`);
    this.addSql(`alter table "audit_log" drop column "seq", drop column "hash", drop column "digest";`);
  }

}
