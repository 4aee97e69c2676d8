import { Migration } from '@mikro-orm/migrations';

// Teams (issue #23), invitations: an invited member carries the hash of their single-use link
// (never the link itself), when it was sent and until when it holds, and when it was used (the hash
// stays after use, so a second use is told "used", not "unknown"). The invitation e-mail is an
// e-mail delivery of the outbox that is about a member, not a form: `form_id` becomes optional and
// `member_id` names the invited member (their removal takes the pending e-mail with it).
export class Migration20261126180000_invitations extends Migration {

  override name = 'Migration20261126180000_invitations';

  override up(): void | Promise<void> {
    this.addSql(`alter table "admin_users" add column "invitation_token_hash" varchar(64) null, add column "invited_at" timestamptz null, add column "invitation_expires_at" timestamptz null, add column "invitation_used_at" timestamptz null;`);
    this.addSql(`alter table "admin_users" add constraint "admin_users_invitation_token_hash_unique" unique ("invitation_token_hash");`);
    this.addSql(`alter table "deliveries" alter column "form_id" drop not null;`);
    this.addSql(`alter table "deliveries" add column "member_id" uuid null;`);
    this.addSql(`create index "deliveries_member_id_index" on "deliveries" ("member_id");`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_member_id_foreign" foreign key ("member_id") references "admin_users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "deliveries" where "form_id" is null;`);
    this.addSql(`alter table "deliveries" drop constraint "deliveries_member_id_foreign";`);
    this.addSql(`drop index "deliveries_member_id_index";`);
    this.addSql(`alter table "deliveries" drop column "member_id";`);
    this.addSql(`alter table "deliveries" alter column "form_id" set not null;`);
    this.addSql(`alter table "admin_users" drop constraint "admin_users_invitation_token_hash_unique";`);
    this.addSql(`alter table "admin_users" drop column "invitation_token_hash", drop column "invited_at", drop column "invitation_expires_at", drop column "invitation_used_at";`);
  }

}
