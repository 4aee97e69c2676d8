import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { StoredFile, Submission } from '@intake/shared/entities';
import type { SqlCondition } from '../lib/submission-filter.js';
import { SubmissionStatusEnum } from './inbox-state.type.js';

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

@ObjectType('ReceiptCheck', {
  description: 'A receipt checked against the published keys and the submission as it is stored now.',
})
export class ReceiptCheckType {
  @Field(() => Boolean, {
    description: 'The signature verifies with a published key and every signed claim equals what is stored.',
  })
  valid!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'The `kid` of the key that signed it, when the signature verifies.',
  })
  keyId!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Why it is not valid: `signature` (malformed, a bad signature, or a key no longer published), `submission` ' +
      '(signed for another id, form, site or time), `data` (the stored data changed) or `files` (the stored files ' +
      'changed); null when valid.',
  })
  problem!: string | null;
}

@ObjectType('Submission')
export class SubmissionType {
  /** The stored rows, for the receipt check (a field resolver: run only when asked for). */
  source!: { submission: Submission; files: readonly StoredFile[] };

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
    description:
      'Why it is spam: honeypot, captcha_unavailable, links, blocked_word, or marked (by a member); null when not spam.',
  })
  spamReason!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'The signed receipt the gateway answered with (a compact JWS, docs/receipts.md); null for a submission ' +
      'stored before receipts.',
  })
  receipt!: string | null;

  @Field(() => SubmissionStatusEnum)
  status!: SubmissionStatusEnum;

  /** Who it is assigned to (the member behind `assignee`); null: nobody. */
  assigneeId!: string | null;

  /** Whether the caller has read it, when the list already knows (one query for a page). */
  readByCaller?: boolean;
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

@ObjectType('SubmissionCountUpTo', { description: 'A count that stopped at its limit.' })
export class SubmissionCountUpToType {
  @Field(() => Int, { description: 'The matches counted: exact while `more` is false, else the limit.' })
  count!: number;

  @Field(() => Boolean, { description: 'Whether more submissions than `count` match.' })
  more!: boolean;
}

@ObjectType('SubmissionConnection', { description: 'Newest first.' })
export class SubmissionConnectionType {
  /** The listed set's condition, for `totalCount` (a field resolver: counted only when asked for). */
  selection!: SqlCondition;

  /** The form listed, for `searchIndexing`. */
  formId!: string;

  @Field(() => [SubmissionEdgeType])
  edges!: SubmissionEdgeType[];

  @Field(() => PageInfoType)
  pageInfo!: PageInfoType;
}
