import type { Em } from '@intake/shared/db';
import { enqueueSubmissionDeliveries } from '@intake/shared/delivery';
import { SubmissionSchema } from '@intake/shared/entities';
import { notFound } from '../errors.js';
import { filesBySubmission } from './files-by-submission.js';
import type { SubmissionWithFiles } from './list-submissions.js';

/**
 * Moves a spam submission to the inbox and queues the webhook and e-mail deliveries it would have
 * had, in one transaction. A submission that is not spam is answered as it is, nothing queued again.
 */
export async function markNotSpam(em: Em, submissionId: string): Promise<SubmissionWithFiles> {
  const submission = await em.transactional(async (tx) => {
    // The flag is cleared by a conditional update: of two concurrent calls only one queues.
    const cleared = await tx.nativeUpdate(
      SubmissionSchema,
      { id: submissionId, spam: true },
      { spam: false, spamReason: null },
    );
    const found = await tx.findOne(SubmissionSchema, { id: submissionId }, { populate: ['form'], refresh: true });
    if (found === null) {
      throw notFound('Submission');
    }
    if (cleared > 0) {
      // The deliveries the gateway would have queued, in the same transaction as the flag.
      await enqueueSubmissionDeliveries(tx, found.form, found);
    }
    return found;
  });
  const files = await filesBySubmission(em, [submission.id]);
  return { submission, files: files.get(submission.id) ?? [] };
}
