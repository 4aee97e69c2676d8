import { Migration } from '@mikro-orm/migrations';

// Sign-in (issue #24), passkeys: each member's WebAuthn credentials (id, public key, signature
// counter, name) and the short-lived, single-use challenges of registration and sign-in (only
// their sha256 is stored).
export class Migration20261126190000_passkeys extends Migration {

  override name = 'Migration20261126190000_passkeys';

  override up(): void | Promise<void> {
    this.addSql(`create table "passkeys" ("id" uuid not null, "admin_id" uuid not null, "name" varchar(100) not null, "credential_id" text not null, "public_key" text not null, "counter" bigint not null default '0', "transports" text[] null, "backed_up" boolean not null default false, "created_at" timestamptz not null, "last_used_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "passkeys" add constraint "passkeys_credential_id_unique" unique ("credential_id");`);
    this.addSql(`alter table "passkeys" add constraint "passkeys_admin_id_foreign" foreign key ("admin_id") references "admin_users" ("id") on delete cascade;`);
    this.addSql(`create table "passkey_challenges" ("id" uuid not null, "admin_id" uuid null, "purpose" varchar(16) not null, "challenge_hash" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "passkey_challenges" add constraint "passkey_challenges_purpose_check" check ("purpose" in ('registration', 'sign_in'));`);
    this.addSql(`alter table "passkey_challenges" add constraint "passkey_challenges_challenge_hash_unique" unique ("challenge_hash");`);
    this.addSql(`create index "passkey_challenges_expires_at_index" on "passkey_challenges" ("expires_at");`);
    this.addSql(`alter table "passkey_challenges" add constraint "passkey_challenges_admin_id_foreign" foreign key ("admin_id") references "admin_users" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "passkey_challenges" cascade;`);
    this.addSql(`drop table if exists "passkeys" cascade;`);
  }

}
