import { Migration } from '@mikro-orm/migrations';

// Hand-written: the gateways cache each form's enabled webhook ids with the form, so adding,
// removing, enabling, disabling or moving a webhook tells the form's site on the same channel as
// Migration20261121133000_site_change_notify. Only those columns: the worker updates a webhook's
// health (failing_since, last_success_at) after every attempt, which must not empty the caches.
// A webhook deleted with its form (cascade) may find no form row here; the form's own trigger tells.
export class Migration20261121140000_webhook_change_notify extends Migration {

  override name = 'Migration20261121140000_webhook_change_notify';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "intake_notify_webhook_change"() returns trigger language plpgsql as $$
declare
  form_ids uuid[] := '{}';
begin
  if TG_OP = 'UPDATE' and NEW.enabled is not distinct from OLD.enabled and NEW.form_id is not distinct from OLD.form_id then
    return null;
  end if;
  if TG_OP <> 'INSERT' then
    form_ids := form_ids || OLD.form_id;
  end if;
  if TG_OP <> 'DELETE' then
    form_ids := form_ids || NEW.form_id;
  end if;
  perform pg_notify('intake_site_changes', f.site_id::text) from "forms" f where f.id = any(form_ids);
  return null;
end;
$$;`);
    this.addSql(`create trigger "webhooks_notify_change" after insert or update of "enabled", "form_id" or delete on "webhooks" for each row execute function "intake_notify_webhook_change"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "webhooks_notify_change" on "webhooks";`);
    this.addSql(`drop function if exists "intake_notify_webhook_change"();`);
  }

}
