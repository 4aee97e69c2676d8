// What became of a submission (`Submission.deliveries`) and which destinations keep failing
// (`Form.deliveryAlerts`), over the listening admin API on the real database: what each shows (a
// host, a recipient count and a short reason, never a URL's path, an address or an answer), and that
// a member who may not read the site sees neither.
import {
  AdminUserSchema,
  DeliveryAttemptSchema,
  DeliverySchema,
  FormSchema,
  MemberSiteGrantSchema,
  SiteSchema,
  SubmissionSchema,
  WebhookSchema,
  type DeliveryStatus,
  type Form,
  type Site,
} from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import { makeWebhook } from '@intake/shared/test';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { startTestAdmin, type TestAdmin } from '../test/harness.js';

const PASSWORD = 'another long passphrase';
const SECRET_PATH = '/hooks/tok_4f9a2c?key=sk_live_abc';

let admin: TestAdmin;
let ownerToken: string;
let site: Site;
let form: Form;

interface AttemptSpec {
  succeeded: boolean;
  statusCode?: number | null;
  error?: string | null;
  response?: string | null;
}

/** A delivery of a submission with its attempts, as the worker leaves them. */
async function addDelivery(
  spec: { submissionId: string | null; webhookId?: string; recipients?: string[]; status: DeliveryStatus },
  attempts: AttemptSpec[],
  createdAt = new Date(),
): Promise<string> {
  const em = admin.services.db.em.fork();
  const last = attempts.length > 0 ? new Date(createdAt.getTime() + attempts.length * 1000) : null;
  const delivery = em.create(DeliverySchema, {
    channel: spec.webhookId ? 'webhook' : 'email',
    form: em.getReference(FormSchema, form.id),
    webhook: spec.webhookId ? em.getReference(WebhookSchema, spec.webhookId) : null,
    submission: spec.submissionId ? em.getReference(SubmissionSchema, spec.submissionId) : null,
    eventType: 'submission.created',
    recipients: spec.recipients ?? null,
    status: spec.status,
    attemptCount: attempts.length,
    nextAttemptAt: new Date(createdAt.getTime() + 3_600_000),
    lastAttemptAt: last,
    createdAt,
  });
  attempts.forEach((attempt, index) =>
    em.create(DeliveryAttemptSchema, {
      delivery,
      number: index + 1,
      startedAt: new Date(createdAt.getTime() + (index + 1) * 1000),
      durationMs: 5,
      succeeded: attempt.succeeded,
      statusCode: attempt.statusCode ?? null,
      error: attempt.error ?? null,
      response: attempt.response ?? null,
    }),
  );
  await em.flush();
  return delivery.id;
}

async function addMember(email: string, grant: 'read' | null): Promise<string> {
  const em = admin.services.db.em.fork();
  const member = em.create(AdminUserSchema, {
    email,
    name: email,
    role: 'member',
    passwordHash: await hashPassword(PASSWORD),
  });
  if (grant) {
    em.create(MemberSiteGrantSchema, { member, site: em.getReference(SiteSchema, site.id), level: grant });
  }
  await em.flush();
  return admin.login(email, PASSWORD);
}

const DELIVERIES = `query ($id: ID!) {
  submission(id: $id) {
    id
    deliveries { id channel target status attemptCount lastError lastAttemptAt nextAttemptAt createdAt }
  }
}`;

const ALERTS = `query ($id: ID!) {
  form(id: $id) { id deliveryAlerts { channel webhookId target reason consecutiveFailures lastError lastFailureAt } }
}`;

beforeAll(async () => {
  admin = await startTestAdmin();
  ownerToken = await admin.login();
});

afterAll(async () => {
  await admin?.close();
});

beforeEach(async () => {
  ({ site } = await makeSite(admin.services));
  form = await makeForm(admin.services, site);
});

describe('Submission.deliveries', () => {
  it("lists each delivery with its status: a webhook's host and an e-mail's recipient count, a short reason", async () => {
    const { webhook } = await makeWebhook(admin.services, form, { url: `https://hooks.example.com${SECRET_PATH}` });
    const { submission } = await makeSubmission(admin.services, form, { data: { name: 'Ada', secret: 'ssn-123' } });
    const created = new Date(Date.now() - 60_000);
    const hookId = await addDelivery(
      { submissionId: submission.id, webhookId: webhook.id, status: 'pending' },
      [{ succeeded: false, statusCode: 500, error: 'HTTP 500', response: 'echo ssn-123' }],
      created,
    );
    const mailId = await addDelivery(
      { submissionId: submission.id, recipients: ['a@example.com', 'b@example.com'], status: 'succeeded' },
      [{ succeeded: true, statusCode: 250, response: '250 queued' }],
      new Date(created.getTime() + 1),
    );
    // Another submission's delivery is not this one's.
    const other = await makeSubmission(admin.services, form);
    await addDelivery({ submissionId: other.submission.id, webhookId: webhook.id, status: 'succeeded' }, []);

    const result = await admin.gql(DELIVERIES, { id: submission.id }, ownerToken);
    expect(result.errors).toBeUndefined();
    expect(result.data!.submission.deliveries).toEqual([
      {
        id: hookId,
        channel: 'webhook',
        target: 'hooks.example.com',
        status: 'PENDING',
        attemptCount: 1,
        lastError: 'HTTP 500',
        lastAttemptAt: new Date(created.getTime() + 1000).toISOString(),
        nextAttemptAt: new Date(created.getTime() + 3_600_000).toISOString(),
        createdAt: created.toISOString(),
      },
      expect.objectContaining({
        id: mailId,
        channel: 'email',
        target: '2 recipients',
        status: 'SUCCEEDED',
        lastError: null,
        nextAttemptAt: null,
      }),
    ]);
    const text = JSON.stringify(result.data);
    for (const hidden of ['tok_4f9a2c', 'sk_live', 'a@example.com', 'ssn-123', 'echo']) {
      expect(text).not.toContain(hidden);
    }
  });

  it('says why without the address the delivery guard refused, and is empty for a submission never delivered', async () => {
    const { webhook } = await makeWebhook(admin.services, form, { url: 'https://intranet.example.com/' });
    const { submission } = await makeSubmission(admin.services, form);
    await addDelivery({ submissionId: submission.id, webhookId: webhook.id, status: 'failed' }, [
      { succeeded: false, error: 'address refused: 10.1.2.3 is private (WEBHOOK_ALLOW_PRIVATE=true allows it)' },
    ]);
    const result = await admin.gql(DELIVERIES, { id: submission.id }, ownerToken);
    expect(result.data!.submission.deliveries).toEqual([
      expect.objectContaining({ status: 'FAILED', lastError: 'address refused (a private or reserved address)' }),
    ]);
    expect(JSON.stringify(result.data)).not.toContain('10.1.2.3');

    const spam = await makeSubmission(admin.services, form, { spam: true });
    const none = await admin.gql(DELIVERIES, { id: spam.submission.id }, ownerToken);
    expect(none.data!.submission.deliveries).toEqual([]);
  });

  it('is read with the submission: a reader of the site sees it, a member without read on the site nothing', async () => {
    const { webhook } = await makeWebhook(admin.services, form, { url: 'https://hooks.example.com/x' });
    const { submission } = await makeSubmission(admin.services, form);
    await addDelivery({ submissionId: submission.id, webhookId: webhook.id, status: 'failed' }, [
      { succeeded: false, statusCode: 503 },
    ]);

    const readerToken = await addMember(`reader-${site.id}@example.com`, 'read');
    const asReader = await admin.gql(DELIVERIES, { id: submission.id }, readerToken);
    expect(asReader.errors).toBeUndefined();
    expect(asReader.data!.submission.deliveries).toEqual([
      expect.objectContaining({ target: 'hooks.example.com', status: 'FAILED', lastError: 'HTTP 503' }),
    ]);
    const readerAlerts = await admin.gql(ALERTS, { id: form.id }, readerToken);
    expect(readerAlerts.data!.form.deliveryAlerts).toEqual([expect.objectContaining({ reason: 'failed' })]);

    const outsiderToken = await addMember(`outsider-${site.id}@example.com`, null);
    const asOutsider = await admin.gql(DELIVERIES, { id: submission.id }, outsiderToken);
    expect(asOutsider.data?.submission ?? null).toBeNull();
    expect(JSON.stringify(asOutsider)).not.toContain('hooks.example.com');
    const outsiderAlerts = await admin.gql(ALERTS, { id: form.id }, outsiderToken);
    expect(outsiderAlerts.data?.form ?? null).toBeNull();
    expect(JSON.stringify(outsiderAlerts)).not.toContain('hooks.example.com');
  });
});

describe('Form.deliveryAlerts', () => {
  const alerts = async () => {
    const result = await admin.gql(ALERTS, { id: form.id }, ownerToken);
    expect(result.errors).toBeUndefined();
    return result.data!.form.deliveryAlerts as Record<string, unknown>[];
  };
  const failure: AttemptSpec = { succeeded: false, error: 'timed out after 10000 ms' };
  const success: AttemptSpec = { succeeded: true, statusCode: 200 };

  it('stays quiet while deliveries succeed, or fail fewer than three times in a row', async () => {
    const { webhook } = await makeWebhook(admin.services, form, { url: 'https://hooks.example.com/x' });
    await addDelivery({ submissionId: null, webhookId: webhook.id, status: 'pending' }, [success, failure, failure]);
    await addDelivery({ submissionId: null, recipients: ['a@example.com'], status: 'succeeded' }, [success]);
    expect(await alerts()).toEqual([]);
  });

  it('flags a webhook failing three attempts in a row, and one whose newest delivery has no retry left', async () => {
    const failing = await makeWebhook(admin.services, form, { url: 'https://failing.example.com/x' });
    const dead = await makeWebhook(admin.services, form, { url: 'https://dead.example.com/x' });
    const older = new Date(Date.now() - 60_000);
    await addDelivery({ submissionId: null, webhookId: failing.webhook.id, status: 'succeeded' }, [success], older);
    await addDelivery({ submissionId: null, webhookId: failing.webhook.id, status: 'pending' }, [
      failure,
      failure,
      failure,
    ]);
    await addDelivery({ submissionId: null, webhookId: dead.webhook.id, status: 'failed' }, [
      { succeeded: false, statusCode: 404 },
    ]);
    expect(await alerts()).toEqual([
      expect.objectContaining({
        channel: 'webhook',
        webhookId: failing.webhook.id,
        target: 'failing.example.com',
        reason: 'failing',
        consecutiveFailures: 3,
        lastError: 'timed out after 10000 ms',
      }),
      expect.objectContaining({ webhookId: dead.webhook.id, reason: 'failed', lastError: 'HTTP 404' }),
    ]);
  });

  it('flags bouncing notification e-mails and a webhook turned off for failing, not one an administrator turned off', async () => {
    await addDelivery({ submissionId: null, recipients: ['gone@example.com'], status: 'failed' }, [
      { succeeded: false, statusCode: 550, error: 'SMTP 550' },
    ]);
    const turnedOff = await makeWebhook(admin.services, form, { url: 'https://off.example.com/x', enabled: false });
    const em = admin.services.db.em.fork();
    await em.nativeUpdate(WebhookSchema, { id: turnedOff.webhook.id }, { disabledReason: 'failing for 5 days' });
    const paused = await makeWebhook(admin.services, form, { url: 'https://paused.example.com/x' });
    const updated = await admin.gql(
      'mutation ($id: ID!) { updateWebhook(id: $id, input: { enabled: false }) { enabled } }',
      { id: paused.webhook.id },
      ownerToken,
    );
    expect(updated.data!.updateWebhook.enabled).toBe(false);
    await addDelivery({ submissionId: null, webhookId: paused.webhook.id, status: 'failed' }, [failure]);

    expect(await alerts()).toEqual([
      expect.objectContaining({ webhookId: turnedOff.webhook.id, reason: 'disabled' }),
      expect.objectContaining({
        channel: 'email',
        webhookId: null,
        target: 'notification e-mails',
        reason: 'failed',
        lastError: 'SMTP 550',
      }),
    ]);
    expect(JSON.stringify(await alerts())).not.toContain('gone@example.com');
  });
});
