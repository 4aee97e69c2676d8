// The GraphQL types of a submission's inbox state: its status, assignee and internal notes
// (docs/submissions.md#status-assignee-and-notes).
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

// The values of SUBMISSION_STATUSES (@intake/shared/entities).
export enum SubmissionStatusEnum {
  new = 'new',
  open = 'open',
  done = 'done',
  archived = 'archived',
}

registerEnumType(SubmissionStatusEnum, {
  name: 'SubmissionStatus',
  description: 'new, open, done; archived hides it from the default view of the inbox.',
});

@ObjectType('SubmissionMember', { description: 'A member of the team as a submission names them.' })
export class SubmissionMemberType {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'Their name, or their e-mail address when they have none.' })
  name!: string;
}

@ObjectType('SubmissionNote', { description: "An internal note: the team's, never sent to webhooks." })
export class SubmissionNoteType {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'Stored sanitised, as submitted text is: HTML-safe text.' })
  text!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => SubmissionMemberType, { nullable: true, description: 'Null once its author left the team.' })
  author!: SubmissionMemberType | null;
}

@ObjectType('SubmissionStatusCounts', {
  description: "A form's inbox (spam apart) by status, and unread for the caller.",
})
export class SubmissionStatusCountsType {
  @Field(() => Int)
  new!: number;

  @Field(() => Int)
  open!: number;

  @Field(() => Int)
  done!: number;

  @Field(() => Int)
  archived!: number;

  @Field(() => Int, { description: 'Not archived and not read by the caller.' })
  unread!: number;
}
