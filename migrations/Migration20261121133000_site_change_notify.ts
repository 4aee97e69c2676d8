import { Migration } from '@mikro-orm/migrations';

// Hand-written: tells every gateway, through NOTIFY on commit, that a site or one of its forms
// changed (token rotation, disabling, deletion, new limits), so their lookup caches drop it at once.
// The payload is the site id; an update that moves a form to another site tells both sites.
export class Migration20261121133000_site_change_notify extends Migration {

  override name = 'Migration20261121133000_site_change_notify';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "intake_notify_site_change"() returns trigger language plpgsql as $$
begin
  if TG_TABLE_NAME = 'sites' then
    perform pg_notify('intake_site_changes', OLD.id::text);
  else
    perform pg_notify('intake_site_changes', OLD.site_id::text);
    if TG_OP = 'UPDATE' and NEW.site_id is distinct from OLD.site_id then
      perform pg_notify('intake_site_changes', NEW.site_id::text);
    end if;
  end if;
  return null;
end;
$$;`);
    this.addSql(`create trigger "sites_notify_change" after update or delete on "sites" for each row execute function "intake_notify_site_change"();`);
    this.addSql(`create trigger "forms_notify_change" after update or delete on "forms" for each row execute function "intake_notify_site_change"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "forms_notify_change" on "forms";`);
    this.addSql(`drop trigger if exists "sites_notify_change" on "sites";`);
    this.addSql(`drop function if exists "intake_notify_site_change"();`);
  }

}
