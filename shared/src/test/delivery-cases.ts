// The cases of "which deliveries a new submission gets" (`submissionDeliveries`, delivery/outbox.ts),
// one table that every path writing a submission's outbox rows is run through: the gateway's
// submission store on each of its paths and the admin API's "Not spam". A path that wrote other
// rows, or other columns, than the table says fails its test.
import { FlushMode } from '@mikro-orm/core';
import { enabledWebhookIds } from '../delivery/outbox.js';
import { DeliverySchema, FormSchema, type Form, type Site } from '../entities/index.js';
import type { Services } from '../services/index.js';
import { makeWebhook } from './delivery.js';
import { makeForm } from './factories.js';

/** An outbox row as the table states it: a webhook's by its label. */
export type CaseDelivery =
  { channel: 'webhook'; webhook: string } | { channel: 'email' | 'confirmation'; recipients: string[] };

/** What a case's submission holds unless the case says otherwise. */
export const CASE_DATA: Readonly<Record<string, unknown>> = { name: 'Ada' };

export interface DeliveryCase {
  name: string;
  /** The form's webhooks, each by a label, enabled unless said otherwise. */
  webhooks: { label: string; enabled?: boolean }[];
  notifyEmails: string[] | null;
  /** The submission's spam verdict. */
  spam: boolean;
  /** The field whose address gets a confirmation (confirmations on); absent: off. */
  confirmationField?: string;
  /** The submission's data; absent: CASE_DATA. */
  data?: Record<string, unknown>;
  deliveries: CaseDelivery[];
}

export const DELIVERY_CASES: readonly DeliveryCase[] = [
  { name: 'a form without webhooks or e-mails', webhooks: [], notifyEmails: null, spam: false, deliveries: [] },
  { name: 'an empty list of e-mails', webhooks: [], notifyEmails: [], spam: false, deliveries: [] },
  {
    name: 'one webhook',
    webhooks: [{ label: 'a' }],
    notifyEmails: null,
    spam: false,
    deliveries: [{ channel: 'webhook', webhook: 'a' }],
  },
  {
    name: 'two webhooks, one disabled',
    webhooks: [{ label: 'a' }, { label: 'off', enabled: false }],
    notifyEmails: null,
    spam: false,
    deliveries: [{ channel: 'webhook', webhook: 'a' }],
  },
  {
    name: 'e-mails only: one message to every address',
    webhooks: [],
    notifyEmails: ['ops@example.test', 'sales@example.test'],
    spam: false,
    deliveries: [{ channel: 'email', recipients: ['ops@example.test', 'sales@example.test'] }],
  },
  {
    name: 'two webhooks and e-mails',
    webhooks: [{ label: 'a' }, { label: 'b' }],
    notifyEmails: ['ops@example.test'],
    spam: false,
    deliveries: [
      { channel: 'email', recipients: ['ops@example.test'] },
      { channel: 'webhook', webhook: 'a' },
      { channel: 'webhook', webhook: 'b' },
    ],
  },
  {
    name: 'spam to a form with webhooks and e-mails',
    webhooks: [{ label: 'a' }, { label: 'b' }],
    notifyEmails: ['ops@example.test'],
    spam: true,
    deliveries: [],
  },
  {
    name: 'spam to a form with e-mails only',
    webhooks: [],
    notifyEmails: ['ops@example.test'],
    spam: true,
    deliveries: [],
  },
  { name: 'spam to a form without deliveries', webhooks: [], notifyEmails: null, spam: true, deliveries: [] },
  {
    name: "a confirmation to the address in the form's field",
    webhooks: [],
    notifyEmails: null,
    spam: false,
    confirmationField: 'email',
    data: { name: 'Ada', email: 'ada@example.test' },
    deliveries: [{ channel: 'confirmation', recipients: ['ada@example.test'] }],
  },
  {
    name: 'a webhook, e-mails and a confirmation',
    webhooks: [{ label: 'a' }],
    notifyEmails: ['ops@example.test'],
    spam: false,
    confirmationField: 'email',
    data: { email: 'ada@example.test' },
    deliveries: [
      { channel: 'confirmation', recipients: ['ada@example.test'] },
      { channel: 'email', recipients: ['ops@example.test'] },
      { channel: 'webhook', webhook: 'a' },
    ],
  },
  {
    name: 'a confirmation field holding no plain address',
    webhooks: [],
    notifyEmails: null,
    spam: false,
    confirmationField: 'email',
    data: { email: 'Ada &lt;ada@example.test&gt;, eve@example.test' },
    deliveries: [],
  },
  {
    name: 'confirmations on, the field absent',
    webhooks: [],
    notifyEmails: null,
    spam: false,
    confirmationField: 'email',
    deliveries: [],
  },
  {
    name: 'spam to a form with confirmations',
    webhooks: [],
    notifyEmails: ['ops@example.test'],
    spam: true,
    confirmationField: 'email',
    data: { email: 'ada@example.test' },
    deliveries: [],
  },
];

export interface ArrangedDeliveryCase {
  /** The form as a request would hold it (the gateway's cached copy). */
  form: Form;
  /** The labels of the form's webhooks, by id. */
  labels: Map<string, string>;
  /** The form's enabled webhooks, as the gateway's cache lists them. */
  webhookIds: string[];
}

/** The case's form on `site`, with its e-mails and webhooks. */
export async function arrangeDeliveryCase(
  services: Services,
  site: Site,
  deliveryCase: DeliveryCase,
): Promise<ArrangedDeliveryCase> {
  const made = await makeForm(services, site);
  const em = services.db.em.fork();
  await em.nativeUpdate(
    FormSchema,
    { id: made.id },
    {
      notifyEmails: deliveryCase.notifyEmails,
      confirmationEnabled: deliveryCase.confirmationField !== undefined,
      confirmationEmailField: deliveryCase.confirmationField ?? null,
    },
  );
  const form = await em.findOneOrFail(FormSchema, made.id);
  const labels = new Map<string, string>();
  for (const { label, enabled } of deliveryCase.webhooks) {
    const { webhook } = await makeWebhook(services, form, { url: `https://hooks.example.test/${label}`, enabled });
    labels.set(webhook.id, label);
  }
  return { form, labels, webhookIds: await enabledWebhookIds(services.db.em.fork(), form.id) };
}

/**
 * The submission's outbox rows as the table states them, each with every column a new row has,
 * sorted; `expectedOutbox` gives the same shape for the table's rows.
 */
export async function outboxOf(
  services: Services,
  submissionId: string,
  { form, labels }: ArrangedDeliveryCase,
): Promise<unknown[]> {
  const readAt = new Date();
  const rows = await services.db.em
    .fork()
    .find(DeliverySchema, { submission: submissionId }, { flushMode: FlushMode.COMMIT });
  return sorted(
    rows.map((row) => ({
      delivery:
        row.channel === 'webhook'
          ? { channel: row.channel, webhook: labels.get(row.webhook?.id ?? '') ?? row.webhook?.id ?? null }
          : { channel: row.channel, recipients: row.recipients },
      ...(row.channel === 'webhook' ? { recipients: row.recipients } : { webhook: row.webhook?.id ?? null }),
      form: row.form?.id === form.id,
      member: row.member?.id ?? null,
      eventType: row.eventType,
      payload: row.payload ?? null,
      status: row.status,
      attemptCount: row.attemptCount,
      retryStep: row.retryStep,
      dueAtOnce: row.nextAttemptAt <= readAt,
      lease: [row.lockedUntil ?? null, row.lockToken ?? null],
      lastAttemptAt: row.lastAttemptAt ?? null,
      completedAt: row.completedAt ?? null,
    })),
  );
}

/** The table's rows in the shape `outboxOf` answers: new, due at once, about the submission. */
export function expectedOutbox(deliveries: readonly CaseDelivery[]): unknown[] {
  return sorted(
    deliveries.map((delivery) => ({
      delivery,
      ...(delivery.channel === 'webhook' ? { recipients: null } : { webhook: null }),
      form: true,
      member: null,
      eventType: 'submission.created',
      payload: null,
      status: 'pending',
      attemptCount: 0,
      retryStep: 0,
      dueAtOnce: true,
      lease: [null, null],
      lastAttemptAt: null,
      completedAt: null,
    })),
  );
}

function sorted(rows: { delivery: object }[]): unknown[] {
  const key = (row: { delivery: object }) => JSON.stringify(row.delivery);
  return [...rows].sort((a, b) => key(a).localeCompare(key(b)));
}
