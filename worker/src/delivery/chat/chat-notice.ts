// What a chat notification says, before any platform's format: the form, its first fields as short
// plain text, the attached files' names (never their contents, nor download links: a channel is read
// by more people than the console lets in) and the submission's page in the console, where a member
// signs in to see the rest.
import type { FormJsonSchema } from '@intake/shared/form-shape';
import type { StoredFile, Submission } from '@intake/shared/entities';
import { decodeStoredText } from '@intake/shared/stored-text';

/** Fields shown in a chat message: enough to triage, not the whole submission. */
export const CHAT_FIELDS_MAX = 5;
/** Characters (code points) of a field's value in a chat message. */
export const CHAT_VALUE_MAX = 200;
/** Characters of a field's name, of the form's and the site's names. */
export const CHAT_NAME_MAX = 100;
/** Files named in a chat message. */
export const CHAT_FILES_MAX = 10;

export interface ChatField {
  name: string;
  value: string;
}

export interface ChatNotice {
  /** The first line: what happened. */
  headline: string;
  formName: string;
  siteName: string;
  /** When the submission arrived; null for a test message. */
  submittedAt: Date | null;
  fields: ChatField[];
  /** Fields left out after the first CHAT_FIELDS_MAX. */
  moreFields: number;
  /** File names and their fields; the contents are never part of a notice. */
  files: { name: string; field: string }[];
  moreFiles: number;
  /** Where to read the rest: the submission's page, or the form's webhooks for a test. */
  link: { url: string; label: string };
}

const CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

/** One line of at most `max` code points, without controls or invisible characters. */
export function shortLine(text: string, max: number): string {
  const line = text.replace(INVISIBLE, '').replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= max
    ? line
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

// Stored strings are DOMPurify's HTML-safe serialisation: shown as the text they stand for.
function asText(value: unknown): string {
  if (typeof value === 'string') {
    return decodeStoredText(value);
  }
  if (value === null || typeof value !== 'object') {
    return String(value);
  }
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) {
    return value.map(asText).join(', ');
  }
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'string' ? asText(inner) : inner));
}

/**
 * The keys to show, in order: the declared fields first (the form's own order), then the others as
 * stored; `_`-prefixed keys (`_subject`, `_replyto`, … from pages written for other services) are
 * instructions, not answers.
 */
function fieldOrder(data: Record<string, unknown>, shape: FormJsonSchema | null): string[] {
  const declared = shape ? Object.keys(shape.properties).filter((key) => Object.hasOwn(data, key)) : [];
  const rest = Object.keys(data).filter((key) => !declared.includes(key));
  return [...declared, ...rest].filter((key) => !key.startsWith('_'));
}

export interface SubmissionNoticeInput {
  submission: Submission;
  formName: string;
  siteName: string;
  files: readonly StoredFile[];
  fieldsSchema: FormJsonSchema | null;
  consoleUrl: string;
}

export function submissionNotice(input: SubmissionNoticeInput): ChatNotice {
  const keys = fieldOrder(input.submission.data, input.fieldsSchema);
  const shown = keys.slice(0, CHAT_FIELDS_MAX);
  const formName = shortLine(input.formName, CHAT_NAME_MAX);
  return {
    headline: `New submission to ${formName}`,
    formName,
    siteName: shortLine(input.siteName, CHAT_NAME_MAX),
    submittedAt: input.submission.createdAt,
    fields: shown.map((key) => ({
      name: shortLine(key, CHAT_NAME_MAX),
      value: shortLine(asText(input.submission.data[key]), CHAT_VALUE_MAX),
    })),
    moreFields: keys.length - shown.length,
    files: input.files
      .slice(0, CHAT_FILES_MAX)
      .map((file) => ({ name: shortLine(file.name, CHAT_NAME_MAX), field: shortLine(file.field, CHAT_NAME_MAX) })),
    moreFiles: Math.max(0, input.files.length - CHAT_FILES_MAX),
    link: { url: input.consoleUrl, label: 'Open the submission in the console' },
  };
}

/** The message `sendTestWebhook` sends to a chat webhook: it says the URL works, nothing more. */
export function testNotice(input: { formName: string; siteName: string; consoleUrl: string }): ChatNotice {
  const formName = shortLine(input.formName, CHAT_NAME_MAX);
  return {
    headline: `Test message from Intake for ${formName}: this webhook is reachable`,
    formName,
    siteName: shortLine(input.siteName, CHAT_NAME_MAX),
    submittedAt: null,
    fields: [],
    moreFields: 0,
    files: [],
    moreFiles: 0,
    link: { url: input.consoleUrl, label: "Open the form's webhooks in the console" },
  };
}

/** "Site · 2026-11-30 10:00 UTC": the line under the headline. */
export function contextLine(notice: ChatNotice): string {
  const when = notice.submittedAt ? `${notice.submittedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
  return [notice.siteName, when].filter(Boolean).join(' · ');
}

/** "cv.pdf (cv), …": the files' names, for platforms that list them on one line. */
export function filesLine(notice: ChatNotice): string {
  const names = notice.files.map((file) => `${file.name} (${file.field})`);
  return notice.moreFiles > 0 ? [...names, `and ${notice.moreFiles} more`].join(', ') : names.join(', ');
}

/** "and 3 more fields in the console", when some were left out. */
export function moreFieldsLine(notice: ChatNotice): string {
  return notice.moreFields > 0 ? `and ${notice.moreFields} more field${notice.moreFields === 1 ? '' : 's'}` : '';
}
