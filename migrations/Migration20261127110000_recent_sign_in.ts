import { Migration } from '@mikro-orm/migrations';

// Recent sign-in (issue #32): when a member last signed in with their password (a password change
// lists the passkeys added since), and a third purpose of WebAuthn challenges, confirming a sign-in
// with a passkey before a change to how one signs in.
export class Migration20261127110000_recent_sign_in extends Migration {

  override name = 'Migration20261127110000_recent_sign_in';

  override up(): void | Promise<void> {
    this.addSql(`alter table "admin_users" add column "password_signed_in_at" timestamptz null;`);
    this.addSql(`alter table "passkey_challenges" drop constraint if exists "passkey_challenges_purpose_check";`);
    this.addSql(`alter table "passkey_challenges" add constraint "passkey_challenges_purpose_check" check ("purpose" in ('registration', 'sign_in', 'confirmation'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "passkey_challenges" where "purpose" = 'confirmation';`);
    this.addSql(`alter table "passkey_challenges" drop constraint if exists "passkey_challenges_purpose_check";`);
    this.addSql(`alter table "passkey_challenges" add constraint "passkey_challenges_purpose_check" check ("purpose" in ('registration', 'sign_in'));`);
    this.addSql(`alter table "admin_users" drop column "password_signed_in_at";`);
  }

}
