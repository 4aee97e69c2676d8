import { InputType } from 'type-graphql';
import { domain, name } from '../validation/fields.js';
import { InputField } from '../validation/input-type.js';

@InputType('CreateSiteInput')
export class CreateSiteInput {
  @InputField(() => String, name)
  name!: string;

  @InputField(() => String, domain, { nullable: true })
  domain?: string | null;
}

@InputType('UpdateSiteInput', { description: 'Absent fields stay as they are; `domain: null` removes the domain.' })
export class UpdateSiteInput {
  @InputField(() => String, name, { nullable: true })
  name?: string;

  @InputField(() => String, domain, { nullable: true })
  domain?: string | null;
}
