import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DeliveryAttemptSchema,
  DeliverySchema,
  FormSchema,
  SiteSchema,
  StoredFileSchema,
  SubmissionSchema,
  type Form,
  type Site,
} from '../entities/index.js';
import type { Services } from '../services/index.js';
import { generateControlCode, generateFormCode } from '../site-token/index.js';

// Builders for tests: each makes a real row with sensible defaults that a test may override.

export async function makeSite(
  services: Services,
  overrides: Partial<Pick<Site, 'name' | 'domain' | 'deletedAt'>> = {},
): Promise<{ site: Site; token: string }> {
  const em = services.db.em.fork();
  const site = em.create(SiteSchema, {
    name: overrides.name ?? 'Test site',
    domain: overrides.domain ?? 'example.test',
    controlCode: generateControlCode(),
    deletedAt: overrides.deletedAt ?? null,
  });
  await em.flush();
  return { site, token: services.siteTokens.issue(site.id, site.controlCode) };
}

export async function makeForm(
  services: Services,
  site: Site,
  overrides: Partial<
    Pick<
      Form,
      | 'name'
      | 'enabled'
      | 'allowedMimeTypes'
      | 'maxFileSize'
      | 'deletedAt'
      | 'retentionDays'
      | 'fieldsSchema'
      | 'unknownFields'
      | 'honeypotFields'
    >
  > = {},
): Promise<Form> {
  const em = services.db.em.fork();
  const form = em.create(FormSchema, {
    site: em.getReference(SiteSchema, site.id),
    name: overrides.name ?? 'Contact',
    code: generateFormCode(),
    enabled: overrides.enabled ?? true,
    allowedMimeTypes: overrides.allowedMimeTypes ?? null,
    maxFileSize: overrides.maxFileSize ?? null,
    deletedAt: overrides.deletedAt ?? null,
    retentionDays: overrides.retentionDays ?? null,
    fieldsSchema: overrides.fieldsSchema ?? null,
    unknownFields: overrides.unknownFields ?? 'refuse',
    honeypotFields: overrides.honeypotFields ?? null,
  });
  await em.flush();
  return form;
}

/**
 * A submission with one stored file (real bytes in the storage) and one e-mail delivery (`status`
 * pending, or succeeded with an attempt whose response echoes `echo`), as the gateway and the
 * worker would leave them.
 */
export async function makeStoredSubmission(
  services: Services,
  formId: string,
  options: {
    data?: Record<string, unknown>;
    createdAt?: Date;
    spam?: boolean;
    delivered?: boolean;
    echo?: string;
  } = {},
): Promise<{ id: string; storageKey: string; deliveryId: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-factory-'));
  const source = path.join(dir, 'upload');
  await writeFile(source, `bytes ${randomUUID()}`);
  const storageKey = await services.storage.putFile(source);
  await rm(dir, { recursive: true, force: true });
  const em = services.db.em.fork();
  const form = em.getReference(FormSchema, formId);
  const submission = em.create(SubmissionSchema, {
    form,
    data: options.data ?? { message: 'x' },
    createdAt: options.createdAt ?? new Date(),
    spam: options.spam ?? false,
    spamReason: options.spam ? 'honeypot' : null,
  });
  em.create(StoredFileSchema, {
    submission,
    position: 0,
    field: 'f',
    name: 'f.txt',
    mimeType: 'text/plain',
    size: 1,
    sha256: '0'.repeat(64),
    storageKey,
  });
  const delivered = options.delivered ?? false;
  const delivery = em.create(DeliverySchema, {
    channel: 'email',
    form,
    submission,
    eventType: 'submission.created',
    recipients: ['ops@example.test'],
    status: delivered ? 'succeeded' : 'pending',
    nextAttemptAt: new Date(),
    attemptCount: delivered ? 1 : 0,
  });
  if (delivered) {
    em.create(DeliveryAttemptSchema, {
      delivery,
      number: 1,
      startedAt: new Date(),
      durationMs: 1,
      succeeded: true,
      statusCode: 250,
      response: `250 queued ${options.echo ?? ''}`,
    });
  }
  await em.flush();
  return { id: submission.id, storageKey, deliveryId: delivery.id };
}

/** Whether the storage holds an object under `key`. */
export async function hasStoredObject(services: Services, key: string): Promise<boolean> {
  for await (const object of services.storage.list()) {
    if (object.key === key) {
      return true;
    }
  }
  return false;
}
