// The changes a dry run checks (validate-setup.ts), each as apply would send it. The inner inputs
// are the mutations' own input types; their values are checked by the same schemas, there.
import { ID, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import { InputField } from '../validation/input-type.js';
import { UpdateFormInput } from '../forms/form.input.js';
import { CreateSiteInput, UpdateSiteInput } from '../sites/site.input.js';
import { UpdateWebhookInput } from '../webhooks/webhook.input.js';
import { WebhookFormatEnum } from '../webhooks/webhook.type.js';

/**
 * Every field here is taken as GraphQL typed it: validate-setup.ts checks each change with its
 * mutation's own schemas (InputArg's would refuse the whole query at the first bad change, and the
 * dry run answers each refused change instead).
 */
function checkedByItsMutation<T>() {
  return z.custom<T>(() => true);
}

@InputType('SetupSiteUpdateInput', { description: 'As `updateSite(id, input)`.' })
export class SetupSiteUpdateInput {
  @InputField(() => ID, checkedByItsMutation<string>())
  id!: string;

  @InputField(() => UpdateSiteInput, checkedByItsMutation<UpdateSiteInput>())
  input!: UpdateSiteInput;
}

@InputType('SetupFormCreateInput', {
  description: 'As `createForm(input: { siteId, name })`, then `updateForm` with `settings` on the new form.',
})
export class SetupFormCreateInput {
  @InputField(() => ID, checkedByItsMutation<string | null>(), {
    nullable: true,
    description: 'A live site; or leave it out and give `siteChange`.',
  })
  siteId?: string | null;

  @InputField(() => Int, checkedByItsMutation<number | null>(), {
    nullable: true,
    description: 'The index of an earlier `createSite` change in this list.',
  })
  siteChange?: number | null;

  @InputField(() => String, checkedByItsMutation<string>())
  name!: string;

  @InputField(() => UpdateFormInput, checkedByItsMutation<UpdateFormInput | null>(), { nullable: true })
  settings?: UpdateFormInput | null;
}

@InputType('SetupFormUpdateInput', { description: 'As `updateForm(id, input)`.' })
export class SetupFormUpdateInput {
  @InputField(() => ID, checkedByItsMutation<string>())
  id!: string;

  @InputField(() => UpdateFormInput, checkedByItsMutation<UpdateFormInput>())
  input!: UpdateFormInput;
}

@InputType('SetupWebhookCreateInput', {
  description: 'As `createWebhook(input: { formId, url, description, format })`.',
})
export class SetupWebhookCreateInput {
  @InputField(() => ID, checkedByItsMutation<string | null>(), {
    nullable: true,
    description: 'A live form; or leave it out and give `formChange`.',
  })
  formId?: string | null;

  @InputField(() => Int, checkedByItsMutation<number | null>(), {
    nullable: true,
    description: 'The index of an earlier `createForm` change in this list.',
  })
  formChange?: number | null;

  @InputField(() => String, checkedByItsMutation<string>())
  url!: string;

  @InputField(() => String, checkedByItsMutation<string | null>(), { nullable: true })
  description?: string | null;

  @InputField(() => WebhookFormatEnum, checkedByItsMutation<WebhookFormatEnum | null>(), { nullable: true })
  format?: WebhookFormatEnum | null;
}

@InputType('SetupWebhookUpdateInput', { description: 'As `updateWebhook(id, input)`.' })
export class SetupWebhookUpdateInput {
  @InputField(() => ID, checkedByItsMutation<string>())
  id!: string;

  @InputField(() => UpdateWebhookInput, checkedByItsMutation<UpdateWebhookInput>())
  input!: UpdateWebhookInput;
}

@InputType('SetupChangeInput', { description: 'One change of a setup: exactly one field set.' })
export class SetupChangeInput {
  @InputField(() => CreateSiteInput, checkedByItsMutation<CreateSiteInput | null>(), { nullable: true })
  createSite?: CreateSiteInput | null;

  @InputField(() => SetupSiteUpdateInput, checkedByItsMutation<SetupSiteUpdateInput | null>(), { nullable: true })
  updateSite?: SetupSiteUpdateInput | null;

  @InputField(() => SetupFormCreateInput, checkedByItsMutation<SetupFormCreateInput | null>(), { nullable: true })
  createForm?: SetupFormCreateInput | null;

  @InputField(() => SetupFormUpdateInput, checkedByItsMutation<SetupFormUpdateInput | null>(), { nullable: true })
  updateForm?: SetupFormUpdateInput | null;

  @InputField(() => SetupWebhookCreateInput, checkedByItsMutation<SetupWebhookCreateInput | null>(), { nullable: true })
  createWebhook?: SetupWebhookCreateInput | null;

  @InputField(() => SetupWebhookUpdateInput, checkedByItsMutation<SetupWebhookUpdateInput | null>(), { nullable: true })
  updateWebhook?: SetupWebhookUpdateInput | null;
}
