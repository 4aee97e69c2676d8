import { Migration } from '@mikro-orm/migrations';

// Submission search (issue #13): one normalised text per submission, a stored generated column the
// database computes from `data`, and a trigram (pg_trgm) index over it. Being generated, the column
// needs nothing from the gateway's INSERT, and adding it fills it for the submissions already stored
// (the table is rewritten once, under lock, while this migration runs). Stored rather than an index
// on the expression: a trigram match is rechecked on every candidate row, and recomputing the text
// there made a search matching 2 % of 100,000 submissions take ~0.5 s instead of milliseconds.
//
// intake_search_normalize: lower case without accents ('Élodie' -> 'elodie'). unaccent() with its
// dictionary named explicitly is the documented way to make it usable in an IMMUTABLE function (the
// one-argument form depends on search_path and is only STABLE); the schema is named for the same reason.
//
// intake_submission_search_text: every string and number value of the submission, at any depth of
// objects and arrays (never the keys), one per line, with the sanitiser's HTML escapes undone (`&amp;`
// -> `&`, `&amp;` last so `&amp;lt;` stays the `&lt;` that was typed) and normalised as above.
export class Migration20261124010000_submission_search extends Migration {

  override name = 'Migration20261124010000_submission_search';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists pg_trgm with schema public;`);
    this.addSql(`create extension if not exists unaccent with schema public;`);
    this.addSql(`create or replace function public.intake_search_normalize(value text) returns text language sql immutable strict parallel safe as $$ select lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;`);
    this.addSql(`create or replace function public.intake_submission_search_text(data jsonb) returns text language sql immutable strict parallel safe as $$ select public.intake_search_normalize(replace(replace(replace(replace(coalesce(string_agg(value #>> '{}', E'\\n'), ''), '&lt;', '<'), '&gt;', '>'), '&nbsp;', ' '), '&amp;', '&')) from jsonb_path_query(data, 'strict $.** ? (@.type() == "string" || @.type() == "number")') as value $$;`);
    this.addSql(`alter table "submissions" add "search_text" text generated always as (public.intake_submission_search_text("data")) stored;`);
    this.addSql(`create index "submissions_search_text_trgm_index" on "submissions" using gin ("search_text" gin_trgm_ops);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "submissions_search_text_trgm_index";`);
    this.addSql(`alter table "submissions" drop column if exists "search_text";`);
    this.addSql(`drop function if exists public.intake_submission_search_text(jsonb);`);
    this.addSql(`drop function if exists public.intake_search_normalize(text);`);
    // The extensions stay: other objects of the database may have come to use them.
  }

}
