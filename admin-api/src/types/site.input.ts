import { Field, InputType } from 'type-graphql';

@InputType('CreateSiteInput')
export class CreateSiteInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  domain?: string | null;
}

@InputType('UpdateSiteInput', { description: 'Absent fields stay as they are; `domain: null` removes the domain.' })
export class UpdateSiteInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  domain?: string | null;
}
