import { Migration } from '@mikro-orm/migrations';

// Statistics for the console's home (issue #13): the gateway's refusals counted per UTC day and
// error code, added to by every gateway process with an upsert. Submissions per day need no table:
// they are counted from "submissions" through its ("spam", "created_at") index.
export class Migration20261124040000_refusal_counts extends Migration {

  override name = 'Migration20261124040000_refusal_counts';

  override up(): void | Promise<void> {
    this.addSql(`create table "refusal_counts" ("day" date not null, "code" varchar(64) not null, "count" bigint not null, primary key ("day", "code"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "refusal_counts" cascade;`);
  }

}
