import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { SqlCondition } from '../submissions/submission-filter.js';

@ObjectType('StoredFile')
export class StoredFileType {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'The form field the file was sent in.' })
  field!: string;

  @Field(() => String, { description: 'The original file name (data only).' })
  name!: string;

  @Field(() => String)
  mimeType!: string;

  @Field(() => Int)
  size!: number;

  @Field(() => String, { description: 'Hex.' })
  sha256!: string;

  @Field(() => String, {
    description: 'Absolute URL that answers the bytes for a short time, without other credentials.',
  })
  downloadUrl!: string;
}

@ObjectType('Submission')
export class SubmissionType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  formId!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => GraphQLJSONObject)
  data!: Record<string, unknown>;

  @Field(() => [String], {
    description:
      'JSON paths (`message`, `items[2]`, `contact.note`) of the values the XSS sanitiser changed beyond escaping: markup removed before storage. Empty when every value is stored as sent.',
  })
  sanitizedFields!: string[];

  @Field(() => [StoredFileType])
  files!: StoredFileType[];

  @Field(() => Boolean, { description: 'Caught by a spam protection: not delivered, hidden from the inbox.' })
  spam!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Why it is spam: honeypot, captcha_unavailable, links or blocked_word; null when not spam.',
  })
  spamReason!: string | null;
}

@ObjectType('SubmissionEdge')
export class SubmissionEdgeType {
  @Field(() => String)
  cursor!: string;

  @Field(() => SubmissionType)
  node!: SubmissionType;
}

@ObjectType('PageInfo')
export class PageInfoType {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}

@ObjectType('SubmissionConnection', { description: 'Newest first.' })
export class SubmissionConnectionType {
  /** The listed set's condition, for `totalCount` (a field resolver: counted only when asked for). */
  selection!: SqlCondition;

  @Field(() => [SubmissionEdgeType])
  edges!: SubmissionEdgeType[];

  @Field(() => PageInfoType)
  pageInfo!: PageInfoType;
}
