import { Field, InputType } from 'type-graphql';

@InputType('SubmissionFilterInput', {
  description: "Narrows a form's submissions; every part optional, all parts must hold.",
})
export class SubmissionFilterInput {
  @Field(() => String, {
    nullable: true,
    description:
      'Text found inside any field value, nested objects and arrays included (not in field names), ignoring case ' +
      'and accents; 3..200 characters, empty or blank means no text filter.',
  })
  query?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 8601 date-time with offset (or a date, meaning 00:00 UTC); created at or after it (inclusive).',
  })
  createdAfter?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'ISO 8601 date-time with offset (or a date, meaning 00:00 UTC); created strictly before it (exclusive).',
  })
  createdBefore?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'true: only submissions with files; false: only those without; null: both.',
  })
  hasFiles?: boolean | null;
}
