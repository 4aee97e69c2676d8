// The notification e-mail of a submission: plain text only (no HTML part, so nothing in it can be
// live markup), listing each field and the names of the attached files, never the files themselves.
import { decodeStoredText } from '@intake/shared/stored-text';
import type { StoredFile, Submission } from '@intake/shared/entities';

export interface NotificationEmail {
  subject: string;
  text: string;
  /** The submitter's address from a `_replyto` field (docs/static-sites.md), when it is one. */
  replyTo?: string;
}

const SUBJECT_MAX = 150;
// One plain address: no display name, no list, nothing a header could be broken with.
const PLAIN_ADDRESS = /^[^\s@<>()[\]",;:\\]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$/;

/** A reserved field of a form written for another service (`_subject`, `_replyto`), as text. */
function reservedText(data: Record<string, unknown>, name: string): string | undefined {
  const value = data[name];
  return typeof value === 'string' && value.trim() !== '' ? decodeStoredText(value).trim() : undefined;
}

export interface NotificationInput {
  submission: Submission;
  formName: string;
  siteName: string;
  files: readonly StoredFile[];
  /** The submission's page in the console, on the admin's public origin. */
  consoleUrl: string;
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
    `A new submission arrived for the form "${oneLine(input.formName)}" of the site "${oneLine(input.siteName)}".`,
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
      : files.map(
          (file) => `- ${oneLine(file.name)} (${file.mimeType}, ${file.size} bytes, field ${oneLine(file.field)})`,
        )),
    '',
    'The files are not attached; open the submission in the console to download them:',
    input.consoleUrl,
    '',
  ];
  const subject = reservedText(submission.data, '_subject');
  const replyTo = reservedText(submission.data, '_replyto');
  return {
    subject: `New submission: ${oneLine(input.formName)}${subject ? `: ${oneLine(subject)}` : ''}`.slice(
      0,
      SUBJECT_MAX,
    ),
    text: lines.join('\n'),
    ...(replyTo !== undefined && PLAIN_ADDRESS.test(replyTo) ? { replyTo } : {}),
  };
}
