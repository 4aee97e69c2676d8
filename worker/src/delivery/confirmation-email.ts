// The confirmation to the person who submitted (docs/confirmations.md): plain text, from the form's
// templates, with the submission's signed receipt attached. Nothing in it comes from what the visitor
// typed: the templates are the owner's, and their placeholders give only the form's name, the time,
// the submission's id and the checked values of fields the owner marked safe (a choice, a yes/no, a
// number). Its headers ask auto-responders not to answer it.
import {
  DEFAULT_CONFIRMATION_SUBJECT,
  DEFAULT_CONFIRMATION_TEMPLATE,
  fillConfirmationTemplate,
  safeFieldValues,
} from '@intake/shared/delivery';
import type { Form, Submission } from '@intake/shared/entities';
import type { OutgoingEmail } from './send-email.js';

// Line breaks and other controls become spaces, invisible and direction marks go: one header line.
const CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;
const SUBJECT_MAX = 200;

function headerLine(text: string): string {
  const line = text.replace(INVISIBLE, '').replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= SUBJECT_MAX ? line : `${chars.slice(0, SUBJECT_MAX - 1).join('')}…`;
}

/**
 * RFC 3834: an automatic answer, which auto-responders must not answer; Exchange's and the older
 * `Precedence` ask for the same. No Reply-To: a reply goes to the sender, never to a visitor's address.
 */
export const CONFIRMATION_HEADERS: Readonly<Record<string, string>> = {
  'Auto-Submitted': 'auto-replied',
  'X-Auto-Response-Suppress': 'All',
  Precedence: 'auto_reply',
};

export interface ConfirmationInput {
  form: Pick<Form, 'name' | 'confirmationSubject' | 'confirmationTemplate' | 'confirmationSafeFields' | 'fieldsSchema'>;
  submission: Pick<Submission, 'id' | 'createdAt' | 'data' | 'receipt'>;
  /** Where the receipt's keys are published: the gateway's `/.well-known/jwks.json`. */
  keysUrl: string;
}

/** The file name of the attached receipt: the compact JWS as it is, as docs/receipts.md hands it over. */
export const receiptFileName = (submissionId: string): string => `receipt-${submissionId}.jws`;

export function confirmationEmail(input: ConfirmationInput): OutgoingEmail {
  const { form, submission } = input;
  const values = {
    formName: form.name,
    time: submission.createdAt.toISOString(),
    submissionId: submission.id,
    fields: safeFieldValues(submission.data, form.fieldsSchema ?? null, form.confirmationSafeFields ?? []),
  };
  const message = fillConfirmationTemplate(form.confirmationTemplate ?? DEFAULT_CONFIRMATION_TEMPLATE, values);
  const receipt = submission.receipt ?? null;
  const lines = [
    message.replace(/\r\n?/g, '\n').trimEnd(),
    '',
    '--',
    ...(receipt === null
      ? []
      : [
          `Attached: ${receiptFileName(submission.id)}, the signed receipt of this submission. Keep it: with it,`,
          'anyone can check what was received and when, with the keys published at',
          input.keysUrl,
          '',
        ]),
    'You receive this because your address was entered in this form. If that was not you, ignore this',
    'message: nothing else will be sent to you about it.',
    '',
  ];
  return {
    subject: headerLine(fillConfirmationTemplate(form.confirmationSubject ?? DEFAULT_CONFIRMATION_SUBJECT, values)),
    text: lines.join('\n'),
    headers: { ...CONFIRMATION_HEADERS },
    attachments:
      receipt === null
        ? []
        : [{ filename: receiptFileName(submission.id), content: receipt, contentType: 'application/jose' }],
  };
}
