// Signed, short-lived export links: `/exports/<payload>.<sig>`, where the payload is the base64url
// JSON of what to export (form, format, spam view, filter) and when the link expires, and the
// signature its HMAC-SHA256 with a key derived from JWT_SECRET for this purpose only. Like a file
// download link, the link is the only credential (a browser download carries no Authorization
// header), so it expires quickly and is checked in constant time; the filter travels inside the
// signed payload, so nobody can widen an export by editing the URL.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '@intake/shared/download-links';
import { isUuid } from '@intake/shared/site-token';
import type { SubmissionFilter } from '../lib/submission-filter.js';

export const EXPORT_KEY_INFO = 'intake export';

export const EXPORT_FORMATS = ['CSV', 'JSON', 'NDJSON'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What one export holds: everything the route needs, nothing it has to look up about the caller. */
export interface ExportRequest {
  formId: string;
  format: ExportFormat;
  /** The Spam view (true) or the inbox (false). */
  spam: boolean;
  /** The inbox's filter, checked when the link was made. */
  filter: SubmissionFilter;
  /** Whether the team's internal notes are in it (only when asked). */
  notes: boolean;
}

export interface SignedExportLink {
  url: string;
  expiresAt: Date;
}

export interface ExportLinks {
  /** An absolute URL for the export, valid for the configured time from `now`. */
  sign(request: ExportRequest, now?: Date): SignedExportLink;
  /** The request the token was signed for, or null when it is forged, altered, malformed or expired. */
  verify(token: string, now?: Date): ExportRequest | null;
}

export interface ExportLinkOptions {
  jwtSecret: string;
  ttlSeconds: number;
  /** The admin API's public origin (`http://host:port`), read when a link is made. */
  publicOrigin: () => string;
}

// The payload is small (a form id and a filter of a few short strings); anything longer is not ours.
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{43})$/;

/** The filter as JSON carries it: instants as ISO strings. */
interface SignedFilter {
  query: string | null;
  createdAfter: string | null;
  createdBefore: string | null;
  hasFiles: boolean | null;
}

interface Payload extends Omit<ExportRequest, 'filter'> {
  filter: SignedFilter;
  /** Unix seconds. */
  exp: number;
}

const toSigned = (filter: SubmissionFilter): SignedFilter => ({
  query: filter.query,
  createdAfter: filter.createdAfter?.toISOString() ?? null,
  createdBefore: filter.createdBefore?.toISOString() ?? null,
  hasFiles: filter.hasFiles,
});

const fromSigned = (filter: SignedFilter): SubmissionFilter => ({
  query: filter.query,
  createdAfter: filter.createdAfter === null ? null : new Date(filter.createdAfter),
  createdBefore: filter.createdBefore === null ? null : new Date(filter.createdBefore),
  hasFiles: filter.hasFiles,
});

const stringOrNull = (value: unknown): boolean => value === null || typeof value === 'string';

function isSignedFilter(value: unknown): value is SignedFilter {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const filter = value as Record<string, unknown>;
  return (
    stringOrNull(filter.query) &&
    stringOrNull(filter.createdAfter) &&
    stringOrNull(filter.createdBefore) &&
    (filter.hasFiles === null || typeof filter.hasFiles === 'boolean')
  );
}

function isPayload(value: unknown): value is Payload {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const payload = value as Record<string, unknown>;
  return (
    typeof payload.formId === 'string' &&
    isUuid(payload.formId) &&
    EXPORT_FORMATS.includes(payload.format as ExportFormat) &&
    typeof payload.spam === 'boolean' &&
    typeof payload.notes === 'boolean' &&
    isSignedFilter(payload.filter) &&
    Number.isSafeInteger(payload.exp)
  );
}

export function createExportLinks(options: ExportLinkOptions): ExportLinks {
  const key = deriveKey(options.jwtSecret, EXPORT_KEY_INFO);
  const sign = (payload: string): Buffer => createHmac('sha256', key).update(payload).digest();

  return {
    sign(request, now = new Date()) {
      const exp = Math.floor(now.getTime() / 1000) + options.ttlSeconds;
      const payload: Payload = { ...request, filter: toSigned(request.filter), exp };
      const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
      const token = `${encoded}.${sign(encoded).toString('base64url')}`;
      const origin = options.publicOrigin().replace(/\/+$/, '');
      return { url: `${origin}/exports/${token}`, expiresAt: new Date(exp * 1000) };
    },
    verify(token, now = new Date()) {
      const match = TOKEN_SHAPE.exec(token);
      if (match === null) {
        return null;
      }
      const [, encoded, signature] = match as unknown as [string, string, string];
      const presented = Buffer.from(signature, 'base64url');
      const expected = sign(encoded);
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
        return null;
      }
      // Signed by us, so well-formed JSON; the shape check guards against a key shared by mistake.
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (!isPayload(payload) || payload.exp < Math.floor(now.getTime() / 1000)) {
        return null;
      }
      const { formId, format, spam, filter, notes } = payload;
      return { formId, format, spam, filter: fromSigned(filter), notes };
    },
  };
}
