import { Migration } from '@mikro-orm/migrations';

// Signed receipts (issue #26): the compact JWS answered with a submission's 201, kept so that a
// replay answers the same receipt and the admin API can show and check it. Null for submissions
// stored before receipts existed.
export class Migration20261126183000_receipts extends Migration {

  override name = 'Migration20261126183000_receipts';

  override up(): void | Promise<void> {
    this.addSql(`alter table "submissions" add column "receipt" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "submissions" drop column "receipt";`);
  }

}
