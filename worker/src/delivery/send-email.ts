// Notification e-mails and confirmations over SMTP (nodemailer, SMTP_URL). Plain text only. The outcome is recorded
// like a webhook attempt: the server's reply as the response, a refusal or a network error as the
// reason for a retry.
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { logText, type AttemptOutcome } from './attempt-outcome.js';
import type { NotificationEmail } from './notification-email.js';

/** An e-mail the worker sends: a notification, or one with headers and attachments of its own (a confirmation). */
export interface OutgoingEmail extends NotificationEmail {
  /** Extra headers, by name (never built from submitted text). */
  headers?: Readonly<Record<string, string>>;
  attachments?: readonly { filename: string; content: string; contentType: string }[];
}

export interface Mailer {
  send(to: readonly string[], email: OutgoingEmail): Promise<AttemptOutcome>;
  close(): void;
}

const TIMEOUT_MS = 30_000;

// Loaded only when a mailer is made (SMTP_URL set): a worker without SMTP never loads nodemailer.
const require = createRequire(import.meta.url);

export function createMailer(smtpUrl: string, from: string): Mailer {
  const nodemailer = require('nodemailer') as typeof Nodemailer;
  const transport: Transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  return {
    async send(to, email) {
      const started = performance.now();
      const durationMs = () => Math.round(performance.now() - started);
      try {
        const message = { from, to: [...to], subject: email.subject, text: email.text };
        // An address object, so nodemailer writes the address as it is instead of parsing it as a list.
        const replyTo = email.replyTo ? { replyTo: { name: '', address: email.replyTo } } : {};
        const extras = {
          ...(email.headers ? { headers: { ...email.headers } } : {}),
          ...(email.attachments?.length ? { attachments: email.attachments.map((file) => ({ ...file })) } : {}),
        };
        const info = (await transport.sendMail({ ...message, ...replyTo, ...extras })) as {
          response?: string;
          rejected?: unknown[];
        };
        // Some recipients accepted: the mail is sent, and a retry would send it to them twice.
        const rejected = info.rejected?.length ?? 0;
        const note = rejected === 0 ? '' : ` (${rejected} recipient(s) rejected)`;
        return {
          succeeded: true,
          statusCode: null,
          error: null,
          response: logText(`${info.response ?? ''}${note}`),
          durationMs: durationMs(),
        };
      } catch (error) {
        const { code, responseCode, response } = error as { code?: string; responseCode?: number; response?: string };
        return {
          succeeded: false,
          statusCode: null,
          error: responseCode ? `SMTP ${responseCode}` : `SMTP error${code ? `: ${code}` : ''}`,
          response: response ? logText(response) : null,
          durationMs: durationMs(),
        };
      }
    },
    close() {
      transport.close();
    },
  };
}
