import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('SetupRefusal', {
  description: 'A change its mutation would refuse, with the error that mutation would answer.',
})
export class SetupRefusalType {
  @Field(() => Int, { description: 'Its index in `changes`.' })
  change!: number;

  @Field(() => String, { description: 'The `extensions.code` of the error (BAD_USER_INPUT, NOT_FOUND, FORBIDDEN...).' })
  code!: string;

  @Field(() => String, { nullable: true, description: 'With BAD_USER_INPUT: the field, as `input.url`.' })
  field!: string | null;

  @Field(() => String)
  message!: string;
}
