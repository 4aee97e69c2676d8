import { InputType } from 'type-graphql';
import { name } from '../../validation/fields.js';
import { InputField } from '../../validation/input-type.js';

@InputType('UpdateAccountInput', { description: 'What a member may change of their own account.' })
export class UpdateAccountInput {
  @InputField(() => String, name)
  name!: string;
}
