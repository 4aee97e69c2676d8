// Whether a form still accepts submissions, stated once. The request's check reads forms through
// ACCEPTING_FORM (site-cache.ts); every write's guard is the same description as SQL (acceptingSql,
// in guarded-insert.ts), checked again in the database because the cache may be a moment behind.
// The site's half (not deleted, the token's control code current) is the site token's check on the
// request and liveSiteSql at the write. write-rules.test.ts runs one table of cases through all.
import { UnderscoreNamingStrategy } from '@mikro-orm/core';

/**
 * A form accepts submissions while it is enabled and not deleted: a MikroORM filter on forms, its
 * values true or null (what acceptingFormSql writes).
 */
export const ACCEPTING_FORM = { enabled: true, deletedAt: null } as const satisfies Record<string, true | null>;

/** How MikroORM names the columns of these properties (its default for SQL databases, used here). */
const naming = new UnderscoreNamingStrategy();

/** ACCEPTING_FORM as SQL over the forms aliased `form`. */
function acceptingFormSql(form: string): string {
  return Object.entries(ACCEPTING_FORM)
    .map(
      ([property, value]) =>
        `${form}."${naming.propertyToColumnName(property)}" ${value === null ? 'is null' : '= true'}`,
    )
    .join(' and ');
}

/** The site aliased `site` is not deleted and `controlCode` (an SQL expression) is its control code. */
export function liveSiteSql(site: string, controlCode: string): string {
  return `${site}."deleted_at" is null and ${site}."control_code" = ${controlCode}`;
}

/**
 * The whole check as an SQL boolean, for a form's id and a token's control code given as SQL
 * expressions: `?` parameters, or the columns of the group statement's rows.
 */
export function acceptingSql(formId: string, controlCode: string): string {
  return `exists (select 1 from "forms" f join "sites" s on s."id" = f."site_id"
  where f."id" = ${formId} and ${acceptingFormSql('f')} and ${liveSiteSql('s', controlCode)})`;
}
