import { Migration } from '@mikro-orm/migrations';

// Single sign-on (issue #32): the account at the OpenID provider (issuer and subject) a member first
// signed in with, so that another account naming the same e-mail is refused; one account, one member.
// A second-factor challenge made by a single sign-on names that account until the factor is right.
export class Migration20261127100000_sso_links extends Migration {

  override name = 'Migration20261127100000_sso_links';

  override up(): void | Promise<void> {
    this.addSql(`alter table "admin_users" add column "sso_issuer" varchar(2048) null, add column "sso_subject" varchar(255) null;`);
    this.addSql(`alter table "admin_users" add constraint "admin_users_sso_issuer_sso_subject_unique" unique ("sso_issuer", "sso_subject");`);
    this.addSql(`alter table "second_factor_challenges" add column "sso_issuer" varchar(2048) null, add column "sso_subject" varchar(255) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "second_factor_challenges" drop column "sso_issuer", drop column "sso_subject";`);
    this.addSql(`alter table "admin_users" drop constraint "admin_users_sso_issuer_sso_subject_unique";`);
    this.addSql(`alter table "admin_users" drop column "sso_issuer", drop column "sso_subject";`);
  }

}
