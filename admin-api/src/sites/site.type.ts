import { Field, ID, ObjectType } from 'type-graphql';
import { FormType } from '../forms/form.type.js';

@ObjectType('Site', { description: 'A customer backend that sends submissions with its site token.' })
export class SiteType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true, description: 'Host name, lower case (punycode for international names).' })
  domain!: string | null;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  updatedAt!: string;
}

@ObjectType('SiteApiView', { description: 'What a site backend needs to send submissions: its token and its forms.' })
export class SiteApiViewType {
  @Field(() => ID)
  siteId!: string;

  @Field(() => String, {
    description: 'A site token for the current control code; any such token works until rotation.',
  })
  token!: string;

  @Field(() => [FormType])
  forms!: FormType[];
}
