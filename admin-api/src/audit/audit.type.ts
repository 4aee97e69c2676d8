import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { z } from 'zod';
import { auditText, auditTime } from './audit-log-filter.js';
import { InputField } from '../validation/input-type.js';
import { PageInfoType } from '../submissions/submission.type.js';

export enum AuditActorKindEnum {
  ADMIN = 'admin',
  API_TOKEN = 'api_token',
  SYSTEM = 'system',
  ANONYMOUS = 'anonymous',
}

registerEnumType(AuditActorKindEnum, {
  name: 'AuditActorKind',
  description: 'Who made an audited change.',
  valuesConfig: {
    ADMIN: { description: 'A signed-in administrator.' },
    API_TOKEN: { description: 'An integrator token.' },
    SYSTEM: { description: 'The service itself (retention runs).' },
    ANONYMOUS: { description: 'Nobody authenticated (a failed sign-in).' },
  },
});

export enum AuditOutcomeEnum {
  SUCCESS = 'success',
  FAILURE = 'failure',
}

registerEnumType(AuditOutcomeEnum, { name: 'AuditOutcome' });

@ObjectType('AuditActor')
export class AuditActorType {
  @Field(() => AuditActorKindEnum)
  kind!: AuditActorKindEnum;

  @Field(() => ID, { nullable: true, description: 'The admin or API token id; null for SYSTEM and unknown accounts.' })
  id!: string | null;

  @Field(() => String, {
    description: "Copied at the time: the admin's e-mail, the token's name, the job's name, or `unknown account`.",
  })
  name!: string;
}

@ObjectType('AuditEntry', { description: 'One administrative action. Never holds a secret or a submitted value.' })
export class AuditEntryType {
  @Field(() => ID)
  id!: string;

  @Field(() => Int, { description: 'Its place in the chain: 1, 2, 3, … in the order entries were written.' })
  sequence!: number;

  @Field(() => String, { description: 'ISO 8601.' })
  at!: string;

  @Field(() => AuditActorType)
  actor!: AuditActorType;

  @Field(() => String, { description: 'The mutation (`createSite`, `login`) or the job (`retention.run`).' })
  action!: string;

  @Field(() => String, { nullable: true, description: 'The type of the object acted on (`Site`, `Form`, …).' })
  objectType!: string | null;

  @Field(() => String, { nullable: true })
  objectId!: string | null;

  @Field(() => AuditOutcomeEnum)
  outcome!: AuditOutcomeEnum;

  @Field(() => String, { nullable: true, description: "On FAILURE: the error's `extensions.code`." })
  errorCode!: string | null;

  @Field(() => String, { nullable: true, description: 'The client address; null for jobs.' })
  address!: string | null;

  @Field(() => String, { nullable: true, description: 'The X-Request-Id of the request; null for jobs.' })
  requestId!: string | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Ids, counts, flags and enum values only (`input.siteId`, `result.count`).',
  })
  details!: Record<string, unknown> | null;
}

@ObjectType('AuditEntryEdge')
export class AuditEntryEdgeType {
  @Field(() => String)
  cursor!: string;

  @Field(() => AuditEntryType)
  node!: AuditEntryType;
}

@ObjectType('AuditEntryConnection', { description: 'Newest first.' })
export class AuditEntryConnectionType {
  @Field(() => [AuditEntryEdgeType])
  edges!: AuditEntryEdgeType[];

  @Field(() => PageInfoType)
  pageInfo!: PageInfoType;
}

@InputType('AuditLogFilterInput', { description: 'Every given condition must hold.' })
export class AuditLogFilterInput {
  @InputField(() => String, auditText, {
    nullable: true,
    description: 'The actor id, or a part of its name (case-insensitive).',
  })
  actor?: string | null;

  @InputField(() => String, auditText, { nullable: true, description: 'Exactly this action (`deleteSite`).' })
  action?: string | null;

  @InputField(() => String, auditText, { nullable: true })
  objectType?: string | null;

  @InputField(() => String, auditText, { nullable: true })
  objectId?: string | null;

  @InputField(() => AuditOutcomeEnum, z.enum(AuditOutcomeEnum).nullable(), { nullable: true })
  outcome?: AuditOutcomeEnum | null;

  @InputField(() => String, auditTime, { nullable: true, description: 'ISO 8601; entries at or after.' })
  from?: Date | null;

  @InputField(() => String, auditTime, { nullable: true, description: 'ISO 8601; entries before.' })
  to?: Date | null;
}

@ObjectType('AuditVerification', { description: 'What a walk over the audit chain found (docs/audit-log.md).' })
export class AuditVerificationType {
  @Field(() => Boolean, {
    description: 'Every entry matches its hash, none is missing or out of place, every checkpoint holds.',
  })
  valid!: boolean;

  @Field(() => Int, {
    description: 'Entries checked and found intact before the first problem (all of them when valid).',
  })
  checkedEntries!: number;

  @Field(() => Int, {
    nullable: true,
    description: 'The sequence number of the first entry changed, removed or moved.',
  })
  firstBadSequence!: number | null;

  @Field(() => String, { nullable: true, description: 'What is wrong there, in words.' })
  problem!: string | null;
}

@ObjectType('AuditLogExport', {
  description: 'The audit log with its chain and signed checkpoints, to keep and check offline.',
})
export class AuditLogExportType {
  @Field(() => String, { description: '`audit-log-<YYYY-MM-DD>.ndjson`.' })
  fileName!: string;

  @Field(() => Int)
  entries!: number;

  @Field(() => String, { description: 'NDJSON: a header line, the anchor, the entries in order, the checkpoints.' })
  content!: string;
}
