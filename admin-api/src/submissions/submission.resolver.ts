// Reading and deleting submissions. Submissions of deleted forms (and of deleted sites' forms) stay
// readable and deletable here: soft deletes hide containers, only `deleteSubmission` destroys data.
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { markNotSpam } from './mark-not-spam.js';
import { deleteSubmission } from './delete-submission.js';
import { findSubmission } from './find-submission.js';
import { listSubmissions, type SubmissionWithFiles } from './list-submissions.js';
import type { AdminContext } from '../context.js';
import type { DownloadLinks } from '../lib/download-link.js';
import { presentSubmission } from './presenters.js';
import { badUserInput } from '../errors.js';
import { submissionFilterOf } from '../lib/submission-filter-fields.js';
import { SubmissionFilterInput } from '../lib/submission-filter.input.js';
import { InputArg } from '../validation/input-type.js';
import { SubmissionConnectionType, SubmissionType } from './submission.type.js';
import { parseId, parsePageSize } from '../validation/fields.js';
import { decodeCursor, encodeCursor } from '../lib/cursor.js';
import { inboxStateFilterOf } from './inbox-state-filter-of.js';
import { SubmissionStateFilterInput } from './inbox-state-filter.input.js';
import { readSubmissionIds } from './submission-reads.js';

function present({ submission, files }: SubmissionWithFiles, links: DownloadLinks): SubmissionType {
  return presentSubmission(submission, files, links);
}

@Authorized()
@Resolver()
export class SubmissionResolver {
  @Query(() => SubmissionConnectionType, {
    description:
      'Newest first; `first` 0..100 (default 20), `after` an endCursor. `spam: false` (the default) is the inbox, ' +
      '`spam: true` the Spam view. `filter` and `state` narrow both the page and `totalCount`; without a ' +
      '`state.status`, archived submissions are left out.',
  })
  async submissions(
    @Arg('formId', () => ID) formId: string,
    @Arg('first', () => Int, { nullable: true }) first: number | null | undefined,
    @Arg('after', () => String, { nullable: true }) after: string | null | undefined,
    @Arg('spam', () => Boolean, { nullable: true, defaultValue: false }) spam: boolean | null | undefined,
    @InputArg('filter', SubmissionFilterInput, { nullable: true }) filterInput: SubmissionFilterInput | null,
    @InputArg('state', SubmissionStateFilterInput, { nullable: true }) stateInput: SubmissionStateFilterInput | null,
    @Ctx() { em, deps, principal }: AdminContext,
  ): Promise<SubmissionConnectionType> {
    const id = parseId(formId, 'formId');
    const pageSize = parsePageSize(first, 'first');
    const cursor = after === null || after === undefined ? null : decodeCursor(after);
    if (cursor === null && after !== null && after !== undefined) {
      throw badUserInput('after', 'is not a cursor of this connection');
    }
    const filter = submissionFilterOf(filterInput);
    const memberId = principal!.member.id;
    const state = inboxStateFilterOf(stateInput, memberId);
    const page = await listSubmissions(em, { formId: id, spam: spam === true, filter, state, pageSize, after: cursor });
    const read = await readSubmissionIds(
      em,
      memberId,
      page.submissions.map((found) => found.submission.id),
    );
    const edges = page.submissions.map((found) => ({
      cursor: encodeCursor(found.submission),
      node: { ...present(found, deps.downloadLinks), readByCaller: read.has(found.submission.id) },
    }));
    return {
      selection: page.selection,
      formId: id,
      edges,
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: edges.at(-1)?.cursor ?? null },
    };
  }

  @Query(() => SubmissionType, { nullable: true })
  async submission(@Arg('id', () => ID) id: string, @Ctx() { em, deps }: AdminContext): Promise<SubmissionType | null> {
    const found = await findSubmission(em, parseId(id, 'id'));
    return found === null ? null : present(found, deps.downloadLinks);
  }

  @Mutation(() => SubmissionType, {
    description:
      'Marks a spam submission as not spam: it moves to the inbox and gets the webhook and e-mail deliveries ' +
      'it would have had. A submission that is not spam is answered as it is, nothing queued again.',
  })
  async markNotSpam(@Arg('id', () => ID) id: string, @Ctx() { em, deps }: AdminContext): Promise<SubmissionType> {
    return present(await markNotSpam(em, parseId(id, 'id')), deps.downloadLinks);
  }

  @Mutation(() => Boolean, {
    description:
      'Deletes the submission with its stored files and deliveries; false when there was no such submission.',
  })
  async deleteSubmission(@Arg('id', () => ID) id: string, @Ctx() { deps }: AdminContext): Promise<boolean> {
    return deleteSubmission(deps.services, parseId(id, 'id'));
  }
}
