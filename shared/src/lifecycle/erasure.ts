// Erasure on request: find every submission, across all sites and forms (deleted ones and spam
// included), holding a value a person asked to have erased, and erase the chosen ones with
// everything that carries their data (deleteSubmissions). The search is a full scan of the
// submissions in SQL, streamed by the database, not loaded here: erasure is occasional, and an
// index over every nested value would cost every intake.
import type { Em } from '../db/orm.js';
import { confirmationAddressScope, plainAddress } from '../delivery/confirmation.js';
import type { Services } from '../services/index.js';
import { deleteSubmissions } from './delete-submissions.js';
import { erasureCondition, type ErasureMatch } from './erasure-match.js';

/** Candidates listed at most, newest first. */
export const ERASURE_CANDIDATES_MAX = 500;
/** Submissions erased per call at most; each transaction takes ERASURE_BATCH of them. */
export const ERASURE_IDS_MAX = 1000;
const ERASURE_BATCH = 100;

export interface ErasureCandidate {
  id: string;
  createdAt: Date;
  spam: boolean;
  siteId: string;
  siteName: string;
  siteDeleted: boolean;
  formId: string;
  formName: string;
  formDeleted: boolean;
  /** Top-level fields of the submission holding the value (at any depth below them). */
  matchingFields: string[];
}

interface CandidateRow {
  id: string;
  created_at: Date | string;
  spam: boolean;
  site_id: string;
  site_name: string;
  site_deleted_at: Date | string | null;
  form_id: string;
  form_name: string;
  form_deleted_at: Date | string | null;
  matching_fields: string[] | string;
}

// Every string or number at any depth of one field's value (`strict` so arrays are not unwrapped
// twice); `#>> '{}'` is its text.
const candidatesSql = (match: ErasureMatch): string => `
select s."id", s."created_at", s."spam",
       si."id" as "site_id", si."name" as "site_name", si."deleted_at" as "site_deleted_at",
       f."id" as "form_id", f."name" as "form_name", f."deleted_at" as "form_deleted_at",
       m."fields" as "matching_fields"
  from "submissions" s
  join "forms" f on f."id" = s."form_id"
  join "sites" si on si."id" = f."site_id"
  cross join lateral (
    select jsonb_agg(e."key" order by e."key") as "fields"
      from jsonb_each(case when jsonb_typeof(s."data") = 'object' then s."data" else '{}'::jsonb end) e
     where exists (
       select 1 from jsonb_path_query(e."value", 'strict $.**') v
        where jsonb_typeof(v) in ('string', 'number')
          and ${erasureCondition(match, `(v #>> '{}')`)})
  ) m
 where m."fields" is not null
 order by s."created_at" desc, s."id" desc
 limit ?`;

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/** The submissions holding the value, newest first, at most ERASURE_CANDIDATES_MAX. */
export async function findErasureCandidates(em: Em, match: ErasureMatch): Promise<ErasureCandidate[]> {
  const rows = await em.execute<CandidateRow[]>(candidatesSql(match), [match.needle, ERASURE_CANDIDATES_MAX], 'all');
  return rows.map((row) => ({
    id: row.id,
    createdAt: toDate(row.created_at),
    spam: row.spam,
    siteId: row.site_id,
    siteName: row.site_name,
    siteDeleted: row.site_deleted_at !== null,
    formId: row.form_id,
    formName: row.form_name,
    formDeleted: row.form_deleted_at !== null,
    matchingFields: typeof row.matching_fields === 'string' ? JSON.parse(row.matching_fields) : row.matching_fields,
  }));
}

export interface ErasureResult {
  erasedIds: string[];
  /** Ids that were not there (already erased or deleted): not an error, erasure is idempotent. */
  notFoundIds: string[];
  fileCount: number;
  deliveryCount: number;
}

interface AddressCount {
  form_id: string;
  scope: string;
}

/**
 * The per-address cap counts these submissions were counted in: each row is named by a hash of the
 * sender's address (gateway/src/submission/capacity.ts computes the same, sha256 of
 * "<form id>:<address trimmed, lower-cased>"), and would outlive an erasure of that person.
 */
function addressCountsOf(em: Em, ids: readonly string[]): Promise<AddressCount[]> {
  return em.execute<AddressCount[]>(
    `select distinct s."form_id", encode(sha256(convert_to(s."form_id"::text || ':' || lower(btrim(s."data"->>f."cap_address_field")), 'UTF8')), 'hex') as "scope"
     from "submissions" s join "forms" f on f."id" = s."form_id"
     where s."id" in (?) and f."cap_address_field" is not null and s."data"->>f."cap_address_field" is not null`,
    [ids],
    'all',
  );
}

/** Forgets those counts: the form's next submission from the address counts it anew from what is stored. */
async function forgetAddressCounts(em: Em, counts: readonly AddressCount[]): Promise<void> {
  for (const { form_id, scope } of counts) {
    await em.execute(
      `delete from "form_submission_counts" where "form_id" = ? and "scope" = ?`,
      [form_id, scope],
      'run',
    );
  }
}

/**
 * The confirmation counts (confirmation_counts) of the addresses these submissions named: the
 * addresses their confirmations went to, and the one in their form's confirmation field.
 */
async function confirmationScopesOf(em: Em, ids: readonly string[]): Promise<string[]> {
  const rows = await em.execute<{ address: unknown }[]>(
    `select to_jsonb(d."recipients"[1]) as "address" from "deliveries" d
      where d."submission_id" in (?) and d."channel" = 'confirmation'
     union
     select s."data"->f."confirmation_email_field" as "address"
       from "submissions" s join "forms" f on f."id" = s."form_id"
      where s."id" in (?) and f."confirmation_email_field" is not null`,
    [ids, ids],
    'all',
  );
  const addresses = rows.map((row) => plainAddress(row.address)).filter((address) => address !== undefined);
  return [...new Set(addresses.map(confirmationAddressScope))];
}

/** Forgets those counts: they would tell that the address was sent a confirmation this hour. */
async function forgetConfirmationCounts(em: Em, scopes: readonly string[]): Promise<void> {
  if (scopes.length > 0) {
    await em.execute(`delete from "confirmation_counts" where "scope" in (?)`, [scopes], 'run');
  }
}

/** Erases these submissions with their files, deliveries and delivery attempts, in batches. */
export async function eraseSubmissions(
  services: Pick<Services, 'db' | 'storage' | 'logger'>,
  ids: readonly string[],
): Promise<ErasureResult> {
  const unique = [...new Set(ids)];
  const result: ErasureResult = { erasedIds: [], notFoundIds: [], fileCount: 0, deliveryCount: 0 };
  for (let start = 0; start < unique.length; start += ERASURE_BATCH) {
    const batch = unique.slice(start, start + ERASURE_BATCH);
    const counts = await addressCountsOf(services.db.em.fork(), batch);
    const confirmations = await confirmationScopesOf(services.db.em.fork(), batch);
    const deleted = await deleteSubmissions(services, batch, 'erased submissions');
    await forgetAddressCounts(services.db.em.fork(), counts);
    await forgetConfirmationCounts(services.db.em.fork(), confirmations);
    const erased = new Set(deleted.submissionIds);
    result.erasedIds.push(...batch.filter((id) => erased.has(id)));
    result.notFoundIds.push(...batch.filter((id) => !erased.has(id)));
    result.fileCount += deleted.storageKeys.length;
    result.deliveryCount += deleted.deliveryCount;
  }
  return result;
}
