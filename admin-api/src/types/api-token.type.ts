import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('ApiToken', { description: 'A long-lived token for integrators; its secret is never shown again.' })
export class ApiTokenType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { nullable: true, description: 'ISO 8601, to the minute.' })
  lastUsedAt!: string | null;
}

@ObjectType('CreatedApiToken')
export class CreatedApiTokenType {
  @Field(() => String, { description: 'The secret, shown this once: send as `Authorization: Bearer <token>`.' })
  token!: string;

  @Field(() => ApiTokenType)
  apiToken!: ApiTokenType;
}
