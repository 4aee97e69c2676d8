import { Migration } from '@mikro-orm/migrations';

// The audit log against someone with the database only (issue #32): checkpoints are chained, each
// naming the one before it (`previous`, the SHA-256 of its statement) and its place (`count`, 1, 2,
// 3, … unique), so a checkpoint removed from among the others shows; checkpoints from before stay
// outside the chain (null). The actor's name holds an API token's name (200 characters) with its
// member's e-mail (320) whole: 523.
export class Migration20261127120000_audit_chain_trust extends Migration {

  override name = 'Migration20261127120000_audit_chain_trust';

  override up(): void | Promise<void> {
    this.addSql(`alter table "audit_checkpoints" add column "count" bigint null, add column "previous" varchar(64) null;`);
    this.addSql(`alter table "audit_checkpoints" add constraint "audit_checkpoints_count_unique" unique ("count");`);
    this.addSql(`alter table "audit_log" alter column "actor_name" type varchar(523);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "audit_log" alter column "actor_name" type varchar(320) using left("actor_name", 320);`);
    this.addSql(`alter table "audit_checkpoints" drop constraint "audit_checkpoints_count_unique";`);
    this.addSql(`alter table "audit_checkpoints" drop column "count", drop column "previous";`);
  }

}
