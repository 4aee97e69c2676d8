import { Extensions, Field, ID, ObjectType, registerEnumType } from 'type-graphql';

// The values of API_TOKEN_LEVELS (@intake/shared/entities); see docs/teams.md, "API tokens".
export enum ApiTokenLevelEnum {
  READ = 'read',
  MANAGE = 'manage',
  ADMIN = 'admin',
}

registerEnumType(ApiTokenLevelEnum, {
  name: 'ApiTokenLevel',
  description:
    "How much of its member's power a token carries: READ reads sites, MANAGE also changes them, ADMIN all the member's role allows (docs/teams.md).",
});

// `audited`: copied into the audit entry of the mutation that returns the token (its scope), see
// audit/mutation-entry.ts. The expiry is a String the server computed, never free text.
@ObjectType('ApiToken', { description: 'A long-lived token for integrators; its secret is never shown again.' })
export class ApiTokenType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Extensions({ audited: true })
  @Field(() => ApiTokenLevelEnum)
  level!: ApiTokenLevelEnum;

  @Extensions({ audited: true })
  @Field(() => [ID], {
    nullable: true,
    description: 'The only sites it reaches; null for every site its member may see.',
  })
  siteIds!: string[] | null;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { nullable: true, description: 'ISO 8601, to the minute.' })
  lastUsedAt!: string | null;

  @Extensions({ audited: true })
  @Field(() => String, { nullable: true, description: 'ISO 8601; null for a token that never ends.' })
  expiresAt!: string | null;
}

@ObjectType('CreatedApiToken')
export class CreatedApiTokenType {
  @Field(() => String, { description: 'The secret, shown this once: send as `Authorization: Bearer <token>`.' })
  token!: string;

  @Field(() => ApiTokenType)
  apiToken!: ApiTokenType;
}
