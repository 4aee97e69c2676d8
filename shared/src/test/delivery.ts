// Real receivers for delivery tests, on loopback: an HTTP webhook receiver that checks every
// signature with the `standardwebhooks` package (an implementation independent of ours) and can
// fail, hang or redirect on demand; an SMTP inbox (`smtp-server`); and a webhook builder.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { createSecretBox, generateWebhookSecret } from '../delivery/webhook-secret.js';
import { FormSchema, WebhookSchema, type Form, type Webhook as WebhookRow } from '../entities/index.js';
import type { Services } from '../services/index.js';

export type Behaviour =
  | { kind: 'status'; status: number; body?: string; delayMs?: number }
  | { kind: 'hang' }
  | { kind: 'redirect'; location: string };

export const answer = (status: number, body = 'ok', delayMs = 0): Behaviour => ({
  kind: 'status',
  status,
  body,
  delayMs,
});
export const hang = (): Behaviour => ({ kind: 'hang' });
export const redirectTo = (location: string): Behaviour => ({ kind: 'redirect', location });

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  json: any;
  /** The signature checked out with the standardwebhooks library and the secret in force. */
  verified: boolean;
  path: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The signing secret the receiver checks with. */
  secret: string | undefined;
  /** How to answer the next requests, in order (replacing any earlier plan); after them: `fallback`. */
  plan(...behaviours: Behaviour[]): void;
  /** The answer when no plan is left; 200 at first. */
  fallback: Behaviour;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const queue: Behaviour[] = [];
  const received: ReceivedWebhook[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    received,
    secret: undefined,
    fallback: answer(200),
    plan: (...behaviours) => queue.splice(0, queue.length, ...behaviours),
    waitFor: (count, timeoutMs = 15_000) => waitUntil(() => received.length >= count, timeoutMs, `${count} webhooks`),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(',') : (value ?? ''),
        ]),
      );
      let verified = false;
      try {
        if (receiver.secret) {
          new Webhook(receiver.secret).verify(body, headers);
          verified = true;
        }
      } catch {
        verified = false;
      }
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      received.push({ headers, body, json, verified, path: req.url ?? '' });
      const behaviour = queue.shift() ?? receiver.fallback;
      if (behaviour.kind === 'hang') {
        return;
      }
      if (behaviour.kind === 'redirect') {
        res.writeHead(302, { location: behaviour.location }).end();
        return;
      }
      const respond = () => res.writeHead(behaviour.status, { 'content-type': 'text/plain' }).end(behaviour.body ?? '');
      if (behaviour.delayMs) {
        setTimeout(respond, behaviour.delayMs);
      } else {
        respond();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The decoded text/plain body. */
  text: string;
  /** The Subject header, unfolded and decoded. */
  subject: string;
}

export interface SmtpInbox {
  url: string;
  messages: ReceivedMail[];
  /** Refuse the next n messages with a 451 (temporary failure). */
  refuseNext(count: number): void;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

// RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`); a run of them is one byte sequence,
// since a character may be split between two of them.
const ENCODED_WORD = /=\?UTF-8\?([QB])\?([^?]*)\?=/gi;
const ENCODED_RUN = /=\?UTF-8\?[QB]\?[^?]*\?=(?:\s+=\?UTF-8\?[QB]\?[^?]*\?=)*/gi;

function decodeHeader(value: string): string {
  return value.replace(ENCODED_RUN, (run) => {
    const bytes = [...run.matchAll(ENCODED_WORD)].map(([, encoding, data]) =>
      encoding!.toUpperCase() === 'B'
        ? Buffer.from(data!, 'base64')
        : Buffer.from(
            data!
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ),
    );
    return Buffer.concat(bytes).toString('utf8');
  });
}

/** The text/plain body of a single-part message as nodemailer writes it. */
function textOf(raw: string): { text: string; subject: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { text: text.replace(/\r\n/g, '\n'), subject: decodeHeader(header('Subject')) };
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1;
          const error = new Error('try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          ...textOf(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuseNext: (count) => {
      refusals = count;
    },
    waitFor: (count, timeoutMs = 15_000) => waitUntil(() => messages.length >= count, timeoutMs, `${count} e-mails`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A webhook row for a form, with its clear-text secret (as createWebhook would make it). */
export async function makeWebhook(
  services: Services,
  form: Form,
  options: { url: string; enabled?: boolean; failingSince?: Date | null },
): Promise<{ webhook: WebhookRow; secret: string }> {
  const secret = generateWebhookSecret();
  const em = services.db.em.fork();
  const webhook = em.create(WebhookSchema, {
    form: em.getReference(FormSchema, form.id),
    url: options.url,
    description: null,
    sealedSecret: createSecretBox(services.config.tokenEncryptionKey).seal(secret),
    enabled: options.enabled ?? true,
    failingSince: options.failingSince ?? null,
  });
  await em.flush();
  return { webhook, secret };
}
