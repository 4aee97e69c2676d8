// Working through a form's inbox: status, assignee and notes (`manage` on the site), read and
// unread and the counts per status (`read`). Rules: access/permissions.ts; docs/submissions.md.
import { SUBMISSION_STATUSES } from '@intake/shared/entities';
import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import type { AdminContext } from '../context.js';
import { id as idSchema, parseId } from '../validation/fields.js';
import { parseInput } from '../validation/parse-input.js';
import { assignableMembers } from './assignable-members.js';
import { assignSubmissions, deleteFormSubmissions, markSubmissionsSpam } from './bulk-changes.js';
import { addSubmissionNote, assignSubmission, setSubmissionsStatus, setSubmissionStatus } from './change-submission.js';
import { countSubmissionStatuses } from './count-submission-statuses.js';
import { SubmissionMemberType, SubmissionStatusCountsType, SubmissionStatusEnum } from './inbox-state.type.js';
import { storedNoteText } from './note-text.js';
import { presentSubmission } from './presenters.js';
import { markSubmissionsRead } from './submission-reads.js';
import { SubmissionType } from './submission.type.js';

/** How many submissions one bulk call may name. */
export const BULK_SELECTION_MAX = 100;

const status = z.enum(SUBMISSION_STATUSES);
const selection = z
  .array(idSchema)
  .min(1, 'must name at least one submission')
  .max(BULK_SELECTION_MAX, `must name at most ${BULK_SELECTION_MAX} submissions`)
  .transform((ids) => [...new Set(ids)]);

@Authorized()
@Resolver()
export class InboxStateResolver {
  @Query(() => SubmissionStatusCountsType, {
    description: "A form's inbox (spam apart) by status, and how many not archived the caller has not read.",
  })
  submissionCounts(
    @Arg('formId', () => ID) formId: string,
    @Ctx() { em, principal }: AdminContext,
  ): Promise<SubmissionStatusCountsType> {
    return countSubmissionStatuses(em, parseId(formId, 'formId'), principal!.member.id);
  }

  @Query(() => [SubmissionMemberType], {
    description:
      "Who the form's submissions may be assigned to: active owners and admins, and active members with access to its site; by name.",
  })
  submissionAssignees(
    @Arg('formId', () => ID) formId: string,
    @Ctx() { em }: AdminContext,
  ): Promise<SubmissionMemberType[]> {
    return assignableMembers(em, parseId(formId, 'formId'));
  }

  @Mutation(() => SubmissionType, { description: 'Sets its status; `archived` hides it from the default view.' })
  async setSubmissionStatus(
    @Arg('id', () => ID) id: string,
    @Arg('status', () => SubmissionStatusEnum) value: SubmissionStatusEnum,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<SubmissionType> {
    const found = await setSubmissionStatus(em, parseId(id, 'id'), parseInput(status, value, 'status'));
    return presentSubmission(found.submission, found.files, deps.downloadLinks);
  }

  @Mutation(() => Int, {
    description:
      `Sets the status of submissions of one form; at most ${BULK_SELECTION_MAX} ids, those of another form left ` +
      'alone. Answers how many of the ids are submissions of that form.',
  })
  setSubmissionsStatus(
    @Arg('formId', () => ID) formId: string,
    @Arg('ids', () => [ID]) ids: string[],
    @Arg('status', () => SubmissionStatusEnum) value: SubmissionStatusEnum,
    @Ctx() { em }: AdminContext,
  ): Promise<number> {
    return setSubmissionsStatus(
      em,
      parseId(formId, 'formId'),
      parseInput(selection, ids, 'ids'),
      parseInput(status, value, 'status'),
    );
  }

  @Mutation(() => SubmissionType, {
    description:
      'Assigns it to a member who can read its site (else BAD_USER_INPUT), or to nobody with a null `assigneeId`.',
  })
  async assignSubmission(
    @Arg('id', () => ID) id: string,
    @Arg('assigneeId', () => ID, { nullable: true }) assigneeId: string | null | undefined,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<SubmissionType> {
    const assignee = assigneeId === null || assigneeId === undefined ? null : parseId(assigneeId, 'assigneeId');
    const found = await assignSubmission(em, parseId(id, 'id'), assignee);
    return presentSubmission(found.submission, found.files, deps.downloadLinks);
  }

  @Mutation(() => SubmissionType, {
    description:
      'Adds an internal note by the caller, 1..5000 characters, stored sanitised as submitted text is; never sent to webhooks.',
  })
  async addSubmissionNote(
    @Arg('id', () => ID) id: string,
    @Arg('text', () => String) text: string,
    @Ctx() { em, deps, principal }: AdminContext,
  ): Promise<SubmissionType> {
    const submissionId = parseId(id, 'id');
    const found = await addSubmissionNote(em, submissionId, principal!.member.id, storedNoteText(text, 'text'));
    return presentSubmission(found.submission, found.files, deps.downloadLinks);
  }

  @Mutation(() => Int, {
    description:
      `Assigns submissions of one form to a member who can read its site, or to nobody with a null \`assigneeId\`; ` +
      `at most ${BULK_SELECTION_MAX} ids, those of another form left alone. Answers how many of the ids are submissions of that form.`,
  })
  assignSubmissions(
    @Arg('formId', () => ID) formId: string,
    @Arg('ids', () => [ID]) ids: string[],
    @Arg('assigneeId', () => ID, { nullable: true }) assigneeId: string | null | undefined,
    @Ctx() { em }: AdminContext,
  ): Promise<number> {
    const assignee = assigneeId === null || assigneeId === undefined ? null : parseId(assigneeId, 'assigneeId');
    return assignSubmissions(em, parseId(formId, 'formId'), parseInput(selection, ids, 'ids'), assignee);
  }

  @Mutation(() => Int, {
    description:
      'Moves submissions of one form to spam (reason `marked`; deliveries already queued or sent stay as they are), ' +
      'or with `spam: false` out of it, each as `markNotSpam` does (its deliveries queued then); ' +
      `at most ${BULK_SELECTION_MAX} ids, those of another form left alone. Answers how many of the ids are submissions of that form.`,
  })
  markSubmissionsSpam(
    @Arg('formId', () => ID) formId: string,
    @Arg('ids', () => [ID]) ids: string[],
    @Arg('spam', () => Boolean, { defaultValue: true }) spam: boolean,
    @Ctx() { em }: AdminContext,
  ): Promise<number> {
    return markSubmissionsSpam(em, parseId(formId, 'formId'), parseInput(selection, ids, 'ids'), spam);
  }

  @Mutation(() => Int, {
    description:
      `Deletes submissions of one form with their files and deliveries; at most ${BULK_SELECTION_MAX} ids, those of ` +
      'another form left alone. Answers how many were deleted.',
  })
  deleteSubmissions(
    @Arg('formId', () => ID) formId: string,
    @Arg('ids', () => [ID]) ids: string[],
    @Ctx() { deps }: AdminContext,
  ): Promise<number> {
    return deleteFormSubmissions(deps.services, parseId(formId, 'formId'), parseInput(selection, ids, 'ids'));
  }

  @Mutation(() => Int, {
    description:
      `Marks submissions of one form read (or unread with \`read: false\`) for the caller; at most ${BULK_SELECTION_MAX} ` +
      'ids, those of another form left alone. Answers how many of the ids are submissions of that form.',
  })
  markSubmissionsRead(
    @Arg('formId', () => ID) formId: string,
    @Arg('ids', () => [ID]) ids: string[],
    @Arg('read', () => Boolean, { defaultValue: true }) read: boolean,
    @Ctx() { em, principal }: AdminContext,
  ): Promise<number> {
    return markSubmissionsRead(
      em,
      principal!.member.id,
      parseId(formId, 'formId'),
      parseInput(selection, ids, 'ids'),
      read,
    );
  }
}
