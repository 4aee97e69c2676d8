import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('AuthPayload')
export class AuthPayloadType {
  @Field(() => String, { description: 'Send as `Authorization: Bearer <token>`.' })
  token!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  expiresAt!: string;
}

@ObjectType('AdminUser')
export class AdminUserType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  passwordChangedAt!: string;
}
