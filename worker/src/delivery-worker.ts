// The delivery worker: claims due deliveries (claim.ts), makes one attempt at each (a signed
// webhook request or a notification e-mail), and records the outcome (record-attempt.ts). It runs
// inside `npm start` and as its own process (`npm run start:worker`); any number may run against
// one PostgreSQL database. A failure of the worker itself (the database away) leaves the claims to
// expire, so nothing is lost: the deliveries are claimed again after their lease.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createSecretBox,
  hashInvitationToken,
  invitationLinkBox,
  isInvitationPayload,
  MEMBER_INVITED,
  PASSWORD_RESET_REQUESTED,
  passwordResetLinkBox,
  submissionCreatedEvent,
  WEBHOOK_TEST,
  type WebhookEvent,
} from '@intake/shared/delivery';
import { createDownloadLinks, type DownloadLinks } from '@intake/shared/download-links';
import {
  DeliverySchema,
  PasswordResetSchema,
  SiteSchema,
  StoredFileSchema,
  type Delivery,
  type Form,
  type StoredFile,
  type Submission,
} from '@intake/shared/entities';
import type { Em } from '@intake/shared/db';
import { publicOrigins } from '@intake/shared/public-urls';
import type { Services } from '@intake/shared/services';
import type { AttemptOutcome } from './delivery/attempt-outcome.js';
import { chatMessage, submissionNotice, testNotice, type ChatFormat } from './delivery/chat/index.js';
import { claimDueDeliveries } from './delivery/claim.js';
import { confirmationEmail } from './delivery/confirmation-email.js';
import { giveBackConfirmation, takeConfirmation } from './delivery/confirmation-limits.js';
import { invitationEmail } from './delivery/invitation-email.js';
import { notificationEmail } from './delivery/notification-email.js';
import { passwordResetEmail } from './delivery/password-reset-email.js';
import { recordAttempt } from './delivery/record-attempt.js';
import { DEFAULT_RETRY_DELAYS_MS, retryDelayMs } from './delivery/retry-delays.js';
import { createMailer, type Mailer } from './delivery/send-email.js';
import { sendWebhook } from './delivery/send-webhook.js';
import { signWebhook } from './delivery/sign.js';

/** A webhook whose every delivery failed for this long is disabled. */
export const DEFAULT_DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

export interface DeliveryWorkerOptions {
  /** Waits between attempts (tests shorten them); default DEFAULT_RETRY_DELAYS_MS. */
  retryScheduleMs?: readonly number[];
  disableAfterMs?: number;
  /** Deliveries claimed (and sent in parallel) at a time. */
  batchSize?: number;
  /** Origin of download links; default the admin's public origin from the configuration (never 0.0.0.0). */
  publicAdminOrigin?: () => string;
  random?: () => number;
}

export interface DeliveryWorker {
  /** Runs until `close`: claims, sends, and sleeps DELIVERY_POLL_INTERVAL_MS when nothing is due. */
  start(): void;
  /** Claims what is due now and makes one attempt at each; resolves with how many. */
  runOnce(): Promise<number>;
  /** Stops claiming, waits for the attempts under way, closes the SMTP transport. */
  close(): Promise<void>;
}

interface Attempt {
  outcome: AttemptOutcome;
  /** No retry could help (the webhook was disabled, the submission deleted). */
  final: boolean;
}

const finalFailure = (error: string): Attempt => ({
  outcome: { succeeded: false, statusCode: null, error, response: null, durationMs: 0 },
  final: true,
});

export function createDeliveryWorker(services: Services, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const { config, db, logger } = services;
  const settings = config.delivery;
  const schedule = options.retryScheduleMs ?? DEFAULT_RETRY_DELAYS_MS;
  const disableAfterMs = options.disableAfterMs ?? DEFAULT_DISABLE_AFTER_MS;
  const batchSize = options.batchSize ?? 10;
  const random = options.random ?? Math.random;
  const adminOrigin = options.publicAdminOrigin ?? (() => publicOrigins(config).admin);
  const links: DownloadLinks = createDownloadLinks({
    jwtSecret: config.jwtSecret,
    ttlSeconds: settings.downloadUrlTtlSeconds,
    publicOrigin: adminOrigin,
  });
  const secrets = createSecretBox(config.tokenEncryptionKey);
  const invitationLinks = invitationLinkBox(config.tokenEncryptionKey);
  const resetLinks = passwordResetLinkBox(config.tokenEncryptionKey);
  const mailer: Mailer | undefined = settings.smtpUrl ? createMailer(settings.smtpUrl, settings.smtpFrom) : undefined;

  const filesOf = (em: Em, submission: Submission): Promise<StoredFile[]> =>
    em.find(StoredFileSchema, { submission: submission.id }, { orderBy: { position: 'asc', id: 'asc' } });

  /** A page of the console, on the admin's public origin: what notification e-mails and chat messages link to. */
  const formPage = (form: Form, page: string): string =>
    `${adminOrigin()}/sites/${form.site.id}/forms/${form.id}/${page}`;

  /**
   * The body of a chat webhook (delivery/chat): the platform's own message about the submission, or a
   * test message; null when the submission is gone.
   */
  async function chatBody(em: Em, format: ChatFormat, delivery: Delivery): Promise<string | null> {
    const form = delivery.form;
    if (!form) {
      return null;
    }
    const site = await em.findOne(SiteSchema, { id: form.site.id });
    const siteName = site?.name ?? '';
    if (delivery.eventType === WEBHOOK_TEST) {
      const notice = testNotice({ formName: form.name, siteName, consoleUrl: formPage(form, 'webhooks') });
      return JSON.stringify(chatMessage(format, notice));
    }
    if (!delivery.submission) {
      return null;
    }
    const notice = submissionNotice({
      submission: delivery.submission,
      formName: form.name,
      siteName,
      files: await filesOf(em, delivery.submission),
      fieldsSchema: form.fieldsSchema ?? null,
      consoleUrl: formPage(form, `submissions/${delivery.submission.id}`),
    });
    return JSON.stringify(chatMessage(format, notice));
  }

  /** The body of a Standard Webhooks event (the `standard` format), built at send time. */
  async function standardBody(em: Em, delivery: Delivery, now: Date): Promise<string | null> {
    let event: WebhookEvent;
    if (delivery.payload) {
      event = { type: delivery.eventType, timestamp: now.toISOString(), data: delivery.payload };
    } else if (delivery.submission && delivery.form) {
      event = submissionCreatedEvent({
        submission: delivery.submission,
        formId: delivery.form.id,
        siteId: delivery.form.site.id,
        files: await filesOf(em, delivery.submission),
        links,
        ttlSeconds: settings.downloadUrlTtlSeconds,
        now,
      });
    } else {
      return null;
    }
    return JSON.stringify(event);
  }

  async function webhookAttempt(em: Em, delivery: Delivery, now: Date): Promise<Attempt> {
    const webhook = delivery.webhook;
    if (!webhook || !webhook.enabled) {
      return finalFailure('webhook is disabled');
    }
    const format = webhook.format ?? 'standard';
    const body = format === 'standard' ? await standardBody(em, delivery, now) : await chatBody(em, format, delivery);
    if (body === null) {
      return finalFailure('the submission was deleted');
    }
    // Chat platforms ignore the signature headers; they are sent all the same, harmless and uniform.
    const headers = signWebhook(secrets.open(webhook.sealedSecret), delivery.id, now, body);
    const outcome = await sendWebhook(
      { url: webhook.url, body, headers: { ...headers } },
      { timeoutMs: settings.webhookTimeoutMs, allowPrivateAddresses: settings.allowPrivateAddresses },
    );
    return { outcome, final: false };
  }

  /**
   * An invitation is sent only while it still holds: the member is still invited with this very link
   * (a resend replaced it, a revocation removed the member and this row with them) and not expired.
   */
  async function invitationAttempt(delivery: Delivery): Promise<Attempt> {
    const member = delivery.member;
    const recipients = delivery.recipients ?? [];
    if (!member || !isInvitationPayload(delivery.payload) || recipients.length === 0) {
      return finalFailure('the invitation is gone');
    }
    if (!mailer) {
      return { ...finalFailure('SMTP_URL is not set'), final: false };
    }
    const link = invitationLinks.open(delivery.payload.sealedLink);
    const token = link.slice(link.indexOf('#') + 1);
    const expiresAt = member.invitationExpiresAt ?? null;
    if (
      member.status !== 'invited' ||
      member.invitationTokenHash !== hashInvitationToken(token) ||
      expiresAt === null ||
      expiresAt.getTime() <= Date.now()
    ) {
      return finalFailure('the invitation no longer holds');
    }
    return {
      outcome: await mailer.send(recipients, invitationEmail({ link, role: member.role, expiresAt })),
      final: false,
    };
  }

  /** A reset link is sent only while it still holds: not used, not replaced, not expired. */
  async function passwordResetAttempt(em: Em, delivery: Delivery): Promise<Attempt> {
    const recipients = delivery.recipients ?? [];
    if (!delivery.member || !isInvitationPayload(delivery.payload) || recipients.length === 0) {
      return finalFailure('the reset link is gone');
    }
    if (!mailer) {
      return { ...finalFailure('SMTP_URL is not set'), final: false };
    }
    const link = resetLinks.open(delivery.payload.sealedLink);
    const reset = await em.findOne(PasswordResetSchema, {
      tokenHash: hashInvitationToken(link.slice(link.indexOf('#') + 1)),
      admin: delivery.member.id,
      usedAt: null,
      expiresAt: { $gt: new Date() },
    });
    if (reset === null) {
      return finalFailure('the reset link no longer holds');
    }
    return {
      outcome: await mailer.send(recipients, passwordResetEmail({ link, expiresAt: reset.expiresAt })),
      final: false,
    };
  }

  async function emailAttempt(em: Em, delivery: Delivery): Promise<Attempt> {
    if (delivery.eventType === MEMBER_INVITED) {
      return invitationAttempt(delivery);
    }
    if (delivery.eventType === PASSWORD_RESET_REQUESTED) {
      return passwordResetAttempt(em, delivery);
    }
    const recipients = delivery.recipients ?? [];
    if (!delivery.submission || !delivery.form || recipients.length === 0) {
      return finalFailure(recipients.length === 0 ? 'no recipients' : 'the submission was deleted');
    }
    if (!mailer) {
      // Failed at once, as the console says (nothing is sent without SMTP_URL), rather than pending
      // through a day of retries; `redeliver` sends it once SMTP_URL is set.
      return finalFailure('SMTP_URL is not set');
    }
    const site = await em.findOne(SiteSchema, { id: delivery.form.site.id });
    const email = notificationEmail({
      submission: delivery.submission,
      formName: delivery.form.name,
      siteName: site?.name ?? '',
      files: await filesOf(em, delivery.submission),
      fieldsSchema: delivery.form.fieldsSchema ?? null,
      consoleUrl: formPage(delivery.form, `submissions/${delivery.submission.id}`),
    });
    return { outcome: await mailer.send(recipients, email), final: false };
  }

  /**
   * The confirmation to the submitter (docs/confirmations.md): only while the form still sends them
   * and the submission is not spam, and only within the hour's limits per address and per form. Over
   * a limit it fails at once with the reason, never retried into a flood.
   */
  async function confirmationAttempt(em: Em, delivery: Delivery): Promise<Attempt> {
    const [address] = delivery.recipients ?? [];
    const { form, submission } = delivery;
    if (!submission || !form || address === undefined) {
      return finalFailure(address === undefined ? 'no recipient' : 'the submission was deleted');
    }
    if (!form.confirmationEnabled) {
      return finalFailure('confirmations are turned off for the form');
    }
    if (submission.spam) {
      return finalFailure('the submission is marked as spam');
    }
    if (!mailer) {
      return finalFailure('SMTP_URL is not set');
    }
    const limits = {
      perAddress: settings.confirmationsPerAddressPerHour,
      perForm: settings.confirmationsPerFormPerHour,
    };
    const hit = await takeConfirmation(em, address, form.id, limits);
    if (hit !== null) {
      return finalFailure(
        hit === 'address'
          ? `rate limited: ${limits.perAddress} confirmations to this address in the hour`
          : `rate limited: ${limits.perForm} confirmations of this form in the hour`,
      );
    }
    const email = confirmationEmail({
      form,
      submission,
      keysUrl: `${publicOrigins(config).gateway}/.well-known/jwks.json`,
    });
    const outcome = await mailer.send([address], email);
    if (!outcome.succeeded) {
      // Not sent: the retry takes its allowance again.
      await giveBackConfirmation(em, address, form.id);
    }
    return { outcome, final: false };
  }

  async function attemptOne(deliveryId: string, lockToken: string): Promise<void> {
    const em = db.em.fork();
    const delivery = await em.findOne(
      DeliverySchema,
      { id: deliveryId, lockToken },
      { populate: ['webhook', 'form', 'submission', 'member'] },
    );
    if (delivery === null) {
      // Deleted with its webhook or submission since the claim, or the lease is already gone.
      return;
    }
    const startedAt = new Date();
    let attempt: Attempt;
    try {
      attempt =
        delivery.channel === 'webhook'
          ? await webhookAttempt(em, delivery, startedAt)
          : delivery.channel === 'confirmation'
            ? await confirmationAttempt(em, delivery)
            : await emailAttempt(em, delivery);
    } catch (error) {
      // Our own fault (a secret that no longer opens, a query that failed): logged, and retried on
      // the schedule like any failure, so it cannot loop for ever.
      logger.error({ err: error, deliveryId }, 'delivery attempt failed inside the worker');
      attempt = { ...finalFailure('internal error'), final: false };
    }
    const { outcome } = attempt;
    const delay = outcome.succeeded || attempt.final ? null : retryDelayMs(schedule, delivery.retryStep + 1, random);
    const result = await recordAttempt(em, {
      deliveryId,
      lockToken,
      webhookId: delivery.channel === 'webhook' ? (delivery.webhook?.id ?? null) : null,
      attemptNumber: delivery.attemptCount,
      startedAt,
      outcome,
      retryDelayMs: delay,
      disableAfterMs,
      // A sealed invitation or reset link is kept no longer than it can still be sent.
      wipePayloadWhenDone: delivery.eventType === MEMBER_INVITED || delivery.eventType === PASSWORD_RESET_REQUESTED,
    });
    // Ids, status and reason only: URLs may hold credentials and payloads hold customer data.
    logger.info(
      {
        deliveryId,
        channel: delivery.channel,
        webhookId: delivery.webhook?.id,
        attempt: delivery.attemptCount,
        succeeded: outcome.succeeded,
        statusCode: outcome.statusCode ?? undefined,
        error: outcome.error ?? undefined,
        durationMs: outcome.durationMs,
        retryInMs: delay ?? undefined,
        leaseLost: result.updated || result.deleted ? undefined : true,
        deliveryDeleted: result.deleted ? true : undefined,
      },
      'delivery attempt',
    );
    if (result.webhookDisabled) {
      logger.warn({ webhookId: delivery.webhook?.id }, 'webhook disabled after failing for too long');
    }
  }

  async function runOnce(): Promise<number> {
    const claim = await claimDueDeliveries(db.em.fork(), batchSize, settings.leaseMs);
    await Promise.all(
      claim.deliveryIds.map((id) =>
        attemptOne(id, claim.lockToken).catch((error: unknown) => {
          // The claim stays until its lease ends; the delivery is tried again then.
          logger.error({ err: error, deliveryId: id }, 'delivery attempt could not be completed');
        }),
      ),
    );
    return claim.deliveryIds.length;
  }

  let running = false;
  let loop: Promise<void> | undefined;
  let idle: AbortController | undefined;

  return {
    start() {
      if (running) {
        return;
      }
      running = true;
      loop = (async () => {
        while (running) {
          let count = 0;
          try {
            count = await runOnce();
          } catch (error) {
            logger.warn({ err: error }, 'could not claim deliveries');
          }
          if (running && count < batchSize) {
            idle = new AbortController();
            await sleep(settings.pollIntervalMs, undefined, { signal: idle.signal }).catch(() => undefined);
          }
        }
      })();
    },
    runOnce,
    async close() {
      running = false;
      idle?.abort();
      await loop;
      mailer?.close();
    },
  };
}
