// The notification e-mail of a submission: plain text only (no HTML part, so nothing in it can be
// live markup), listing each field and the names of the attached files, never the files themselves,
// which the submission's page in the console downloads; or, when the form allows it, each file with a
// download link that expires (anyone holding the e-mail can use it until then).
import { decodeStoredText } from '@intake/shared/stored-text';
import type { FormJsonSchema } from '@intake/shared/form-shape';
import type { StoredFile, Submission } from '@intake/shared/entities';
import { replyToAddress } from './reply-to.js';

export interface NotificationEmail {
  subject: string;
  text: string;
  /** The submitter's one plain address (reply-to.ts), when the submission holds one. */
  replyTo?: string;
}

// Characters of the subject: the form's name and the site's are cut first, then the whole line.
const FORM_NAME_MAX = 100;
const SITE_NAME_MAX = 60;
const SUBJECT_MAX = 200;
// Line breaks and other controls become spaces; zero-width and direction marks go, so no part of the
// subject can be hidden, reordered or start a header of its own.
const CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

/** A name on one line, without invisible characters. */
function plainLine(text: string): string {
  return text.replace(INVISIBLE, '').replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
}

/** Text for a header: a plain line of at most `max` characters (code points). */
function headerText(text: string, max: number): string {
  const line = plainLine(text);
  const chars = [...line];
  if (chars.length <= max) {
    return line;
  }
  const cut = chars.slice(0, max - 1).join('');
  return `${cut.trimEnd()}…`;
}

/** `_subject`, from a page written for another service (docs/static-sites.md), as text. */
function submittedSubject(data: Record<string, unknown>): string {
  const value = data._subject;
  return typeof value === 'string' ? headerText(decodeStoredText(value), SUBJECT_MAX) : '';
}

function subjectOf(input: NotificationInput): string {
  const site = headerText(input.siteName, SITE_NAME_MAX);
  const extra = submittedSubject(input.submission.data);
  const line = `New submission to ${headerText(input.formName, FORM_NAME_MAX)}${site ? ` (${site})` : ''}`;
  return headerText(extra ? `${line}: ${extra}` : line, SUBJECT_MAX);
}

export interface NotificationInput {
  submission: Submission;
  formName: string;
  siteName: string;
  files: readonly StoredFile[];
  /** The form's declared fields, which say which one holds the submitter's address; null: none. */
  fieldsSchema: FormJsonSchema | null;
  /** The submission's page in the console, on the admin's public origin. */
  consoleUrl: string;
  /** When the form lists files with links: each file's signed download link and when they expire. */
  fileLinks?: { urlFor(fileId: string): string; expiresAt: Date };
}

// Stored strings are DOMPurify's HTML-safe serialisation: shown as the text they stand for.
function asText(value: unknown): string {
  if (typeof value === 'string') {
    return decodeStoredText(value);
  }
  if (value === null || typeof value !== 'object') {
    return String(value);
  }
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'string' ? asText(inner) : inner));
}

/** Continuation lines are indented, so a value cannot pass itself off as another field. */
function indented(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\n/g, '\n    ');
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/** The values whose markup was removed before storage, so nobody reads them as what was sent. */
function sanitizedNote(paths: readonly string[]): string[] {
  return paths.length === 0 ? [] : ['', `Markup removed by the XSS sanitiser: ${oneLine(paths.join(', '))}`];
}

export function notificationEmail(input: NotificationInput): NotificationEmail {
  const { submission, files } = input;
  const fields = Object.entries(submission.data);
  const lines = [
    `A new submission arrived for the form "${plainLine(input.formName)}" of the site "${plainLine(input.siteName)}".`,
    '',
    `Open it in the console: ${input.consoleUrl}`,
    '',
    `Submission: ${submission.id}`,
    `Received:   ${submission.createdAt.toISOString()}`,
    '',
    'Fields',
    '------',
    ...(fields.length === 0 ? ['(none)'] : fields.map(([key, value]) => `${oneLine(key)}: ${indented(asText(value))}`)),
    ...sanitizedNote(submission.sanitizedFields ?? []),
    '',
    'Attachments',
    '-----------',
    ...(files.length === 0
      ? ['(none)']
      : [
          ...files.flatMap((file) => [
            `- ${oneLine(file.name)} (${file.mimeType}, ${file.size} bytes, field ${oneLine(file.field)})`,
            ...(input.fileLinks ? [`  ${input.fileLinks.urlFor(file.id)}`] : []),
          ]),
          '',
          ...(input.fileLinks
            ? [
                `The files are not attached to this e-mail. Their links above work until ${input.fileLinks.expiresAt.toISOString()};`,
                "after that, download them from the submission's page in the console:",
              ]
            : ["The files are not attached to this e-mail. Download them from the submission's page in the console:"]),
          input.consoleUrl,
        ]),
    '',
  ];
  const replyTo = replyToAddress(submission.data, input.fieldsSchema);
  return { subject: subjectOf(input), text: lines.join('\n'), ...(replyTo === undefined ? {} : { replyTo }) };
}
