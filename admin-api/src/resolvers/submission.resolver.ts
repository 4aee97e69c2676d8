// Reading and deleting submissions. Submissions of deleted forms (and of deleted sites' forms) stay
// readable and deletable here: soft deletes hide containers, only `deleteSubmission` destroys data.
import {
  enqueueSubmissionDeliveries,
  FormSchema,
  StoredFileSchema,
  SubmissionSchema,
  type Em,
  type StoredFile,
  type Submission,
} from '@intake/shared';
import type { FilterQuery } from '@mikro-orm/core';
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { presentSubmission } from '../presenters/submission.js';
import { badUserInput, notFound } from '../schema/errors.js';
import { SubmissionConnectionType, SubmissionType } from '../types/submission.type.js';
import { parseId, parsePageSize } from '../validation/fields.js';
import { decodeCursor, encodeCursor } from './cursor.js';

/** The files of some submissions in one query, grouped by submission id. */
async function filesBySubmission(em: Em, submissionIds: readonly string[]): Promise<Map<string, StoredFile[]>> {
  const grouped = new Map<string, StoredFile[]>();
  if (submissionIds.length === 0) {
    return grouped;
  }
  // In the order they were sent.
  const files = await em.find(
    StoredFileSchema,
    { submission: { $in: [...submissionIds] } },
    { orderBy: { position: 'asc', id: 'asc' } },
  );
  for (const file of files) {
    const list = grouped.get(file.submission.id) ?? [];
    list.push(file);
    grouped.set(file.submission.id, list);
  }
  return grouped;
}

@Authorized()
@Resolver()
export class SubmissionResolver {
  @Query(() => SubmissionConnectionType, {
    description:
      'Newest first; `first` 0..100 (default 20), `after` an endCursor. `spam: false` (the default) is the inbox, ' +
      '`spam: true` the Spam view.',
  })
  async submissions(
    @Arg('formId', () => ID) formId: string,
    @Arg('first', () => Int, { nullable: true }) first: number | null | undefined,
    @Arg('after', () => String, { nullable: true }) after: string | null | undefined,
    @Arg('spam', () => Boolean, { nullable: true, defaultValue: false }) spam: boolean | null | undefined,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<SubmissionConnectionType> {
    const inSpamView = spam === true;
    const id = parseId(formId, 'formId');
    const pageSize = parsePageSize(first, 'first');
    const cursor = after === null || after === undefined ? null : decodeCursor(after);
    if (cursor === null && after !== null && after !== undefined) {
      throw badUserInput('after', 'is not a cursor of this connection');
    }
    // Deleted forms included: their submissions are kept and stay readable.
    const form = await em.findOne(FormSchema, { id });
    if (form === null) {
      throw notFound('Form');
    }

    const where: FilterQuery<Submission> =
      cursor === null
        ? { form: form.id, spam: inSpamView }
        : {
            form: form.id,
            spam: inSpamView,
            $or: [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { $lt: cursor.id } }],
          };
    // Keyset pagination on (createdAt, id), served by the (form, created_at, id) index; one extra
    // row tells whether there is a next page.
    const rows = await em.find(SubmissionSchema, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: pageSize + 1,
    });
    const totalCount = await em.count(SubmissionSchema, { form: form.id, spam: inSpamView });
    const page = rows.slice(0, pageSize);
    const files = await filesBySubmission(
      em,
      page.map((submission) => submission.id),
    );
    const edges = page.map((submission) => ({
      cursor: encodeCursor(submission),
      node: presentSubmission(submission, files.get(submission.id) ?? [], deps.downloadLinks),
    }));
    return {
      totalCount,
      edges,
      pageInfo: { hasNextPage: rows.length > pageSize, endCursor: edges.at(-1)?.cursor ?? null },
    };
  }

  @Query(() => SubmissionType, { nullable: true })
  async submission(@Arg('id', () => ID) id: string, @Ctx() { em, deps }: AdminContext): Promise<SubmissionType | null> {
    const submission = await em.findOne(SubmissionSchema, { id: parseId(id, 'id') });
    if (submission === null) {
      return null;
    }
    const files = await filesBySubmission(em, [submission.id]);
    return presentSubmission(submission, files.get(submission.id) ?? [], deps.downloadLinks);
  }

  @Mutation(() => SubmissionType, {
    description:
      'Marks a spam submission as not spam: it moves to the inbox and gets the webhook and e-mail deliveries ' +
      'it would have had. A submission that is not spam is answered as it is, nothing queued again.',
  })
  async markNotSpam(@Arg('id', () => ID) id: string, @Ctx() { em, deps }: AdminContext): Promise<SubmissionType> {
    const submissionId = parseId(id, 'id');
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
    return presentSubmission(submission, files.get(submission.id) ?? [], deps.downloadLinks);
  }

  @Mutation(() => Boolean, {
    description: 'Deletes the submission and its stored files; false when there was no such submission.',
  })
  async deleteSubmission(
    @Arg('id', () => ID) id: string,
    @Ctx() { em, deps, logger, requestId }: AdminContext,
  ): Promise<boolean> {
    const submissionId = parseId(id, 'id');
    const storageKeys = await em.transactional(async (tx) => {
      const files = await tx.find(StoredFileSchema, { submission: submissionId });
      await tx.nativeDelete(StoredFileSchema, { submission: submissionId });
      const deleted = await tx.nativeDelete(SubmissionSchema, { id: submissionId });
      return deleted === 0 ? null : files.map((file) => file.storageKey);
    });
    if (storageKeys === null) {
      return false;
    }
    // Only after the commit: a failed transaction must not lose bytes that rows still point to. An
    // object that cannot be removed now is an orphan (no row points to it, no link can reach it).
    for (const key of storageKeys) {
      try {
        await deps.services.storage.delete(key);
      } catch (error) {
        logger.warn({ err: error, requestId, submissionId }, 'stored object of a deleted submission was not removed');
      }
    }
    return true;
  }
}
