// A submission's inbox state beside its values: who it is assigned to, its internal notes, and
// whether the caller has read it. Field resolvers: each runs only when a client asks for it.
import { AdminUserSchema } from '@intake/shared/entities';
import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { SubmissionMemberType, SubmissionNoteType } from './inbox-state.type.js';
import { submissionNotes } from './submission-notes.js';
import { readSubmissionIds } from './submission-reads.js';
import { SubmissionType } from './submission.type.js';

@Authorized()
@Resolver(() => SubmissionType)
export class InboxStateFieldsResolver {
  @FieldResolver(() => SubmissionMemberType, { nullable: true, description: 'Who looks after it; null: nobody.' })
  async assignee(
    @Root() submission: SubmissionType,
    @Ctx() { em }: AdminContext,
  ): Promise<SubmissionMemberType | null> {
    if (submission.assigneeId === null) {
      return null;
    }
    const member = await em.findOne(AdminUserSchema, { id: submission.assigneeId }, { fields: ['name', 'email'] });
    return member === null ? null : { id: member.id, name: member.name || member.email };
  }

  @FieldResolver(() => [SubmissionNoteType], { description: "The team's internal notes, oldest first." })
  notes(@Root() submission: SubmissionType, @Ctx() { em }: AdminContext): Promise<SubmissionNoteType[]> {
    return submissionNotes(em, submission.id);
  }

  @FieldResolver(() => Boolean, { description: 'Whether the caller has read it (read and unread are per member).' })
  async read(@Root() submission: SubmissionType, @Ctx() { em, principal }: AdminContext): Promise<boolean> {
    if (submission.readByCaller !== undefined) {
      return submission.readByCaller;
    }
    return (await readSubmissionIds(em, principal!.member.id, [submission.id])).has(submission.id);
  }
}
