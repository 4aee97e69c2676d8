import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('Passkey', { description: "One of the signed-in member's passkeys (docs/sign-in.md)." })
export class PasskeyType {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'The name the member gave it, such as "Work laptop".' })
  name!: string;

  @Field(() => Boolean, { description: 'A synced (multi-device) passkey, as the authenticator said at registration.' })
  backedUp!: boolean;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String, { nullable: true, description: 'When it last signed in; null if never.' })
  lastUsedAt!: string | null;
}
