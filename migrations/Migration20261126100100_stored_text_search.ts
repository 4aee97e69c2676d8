import { Migration } from '@mikro-orm/migrations';

// Search and erasure read every escape the sanitiser writes (issue #21). The sanitiser stores text
// with `&amp;`, `&lt;`, `&gt;`, `&nbsp;`, `&quot;` and `&#39;`; the search text decoded only the first
// four, so `O'Brien` found nothing while `#39;` found the row, and erasure compared the escaped form.
//
// intake_stored_text: stored text back to typed text, in SQL, for the search column and erasure. It is
// the database's copy of decodeStoredText (shared/src/stored-text.ts), which owns the rule; a test
// (shared/src/stored-text-sql.test.ts) holds the two to the same answers. `&amp;` goes last, so
// `&amp;lt;` stays the `&lt;` that was typed.
//
// The search column is generated and stored: its values are recomputed by dropping and adding it
// again (with its index), which rewrites the table once, under lock, while this migration runs.
export class Migration20261126100100_stored_text_search extends Migration {

  override name = 'Migration20261126100100_stored_text_search';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function public.intake_stored_text(stored text) returns text language sql immutable strict parallel safe as $$ select replace(replace(replace(replace(replace(replace(stored, '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&nbsp;', E'\\u00A0'), '&amp;', '&') $$;`);
    this.addSql(`alter table "submissions" drop column "search_text";`);
    this.addSql(`create or replace function public.intake_submission_search_text(data jsonb) returns text language sql immutable strict parallel safe as $$ select public.intake_search_normalize(replace(public.intake_stored_text(coalesce(string_agg(value #>> '{}', E'\\n'), '')), E'\\u00A0', ' ')) from jsonb_path_query(data, 'strict $.** ? (@.type() == "string" || @.type() == "number")') as value $$;`);
    this.addSql(`alter table "submissions" add "search_text" text generated always as (public.intake_submission_search_text("data")) stored;`);
    this.addSql(`create index "submissions_search_text_trgm_index" on "submissions" using gin ("search_text" gin_trgm_ops);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "submissions" drop column "search_text";`);
    this.addSql(`create or replace function public.intake_submission_search_text(data jsonb) returns text language sql immutable strict parallel safe as $$ select public.intake_search_normalize(replace(replace(replace(replace(coalesce(string_agg(value #>> '{}', E'\\n'), ''), '&lt;', '<'), '&gt;', '>'), '&nbsp;', ' '), '&amp;', '&')) from jsonb_path_query(data, 'strict $.** ? (@.type() == "string" || @.type() == "number")') as value $$;`);
    this.addSql(`alter table "submissions" add "search_text" text generated always as (public.intake_submission_search_text("data")) stored;`);
    this.addSql(`create index "submissions_search_text_trgm_index" on "submissions" using gin ("search_text" gin_trgm_ops);`);
    this.addSql(`drop function if exists public.intake_stored_text(text);`);
  }

}
