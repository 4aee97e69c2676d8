// Builders for admin API tests: sites and forms come from the shared factories; submissions with
// real stored files are made here, straight through the ORM and the storage (as the gateway would).
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  FormSchema,
  StoredFileSchema,
  SubmissionSchema,
  type Form,
  type StoredFile,
  type Submission,
} from '@intake/shared/entities';
import { indexAllPendingSubmissions } from '@intake/shared/search';
import type { Services } from '@intake/shared/services';

export { makeForm, makeSite } from '@intake/shared/test';

export interface SampleFile {
  field: string;
  name: string;
  mimeType: string;
  bytes: Buffer;
}

export function sampleFile(overrides: Partial<SampleFile> = {}): SampleFile {
  return {
    field: 'attachment',
    name: 'notes.txt',
    mimeType: 'text/plain',
    bytes: Buffer.from(`sample ${randomUUID()}\n`, 'utf8'),
    ...overrides,
  };
}

export interface MadeSubmission {
  submission: Submission;
  files: StoredFile[];
}

export async function makeSubmission(
  services: Services,
  form: Form,
  options: {
    data?: Record<string, unknown>;
    createdAt?: Date;
    files?: SampleFile[];
    spam?: boolean;
    /** false: leave it queued for the search index, as the gateway's writes are until the worker runs. */
    indexSearch?: boolean;
  } = {},
): Promise<MadeSubmission> {
  const em = services.db.em.fork();
  const submission = em.create(SubmissionSchema, {
    form: em.getReference(FormSchema, form.id),
    data: options.data ?? { name: 'Ada', message: 'Hello' },
    createdAt: options.createdAt ?? new Date(),
    idempotencyKey: null,
    spam: options.spam ?? false,
  });
  const files: StoredFile[] = [];
  const scratch = path.join(services.config.dataDir, 'factory-tmp');
  await mkdir(scratch, { recursive: true });
  for (const [position, sample] of (options.files ?? []).entries()) {
    const temporary = path.join(scratch, randomUUID());
    await writeFile(temporary, sample.bytes);
    const storageKey = await services.storage.putFile(temporary);
    await rm(temporary, { force: true });
    files.push(
      em.create(StoredFileSchema, {
        submission,
        position,
        field: sample.field,
        name: sample.name,
        mimeType: sample.mimeType,
        size: sample.bytes.length,
        sha256: createHash('sha256').update(sample.bytes).digest('hex'),
        storageKey,
      }),
    );
  }
  await em.flush();
  if (options.indexSearch !== false) {
    // Searchable at once, as the worker would make it within about a second.
    await indexAllPendingSubmissions(services.db);
  }
  return { submission, files };
}
