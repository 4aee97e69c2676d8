// The changes a dry run checks (validate-setup.ts), each as apply would send it. The inner inputs
// are the mutations' own input types; their values are checked by the same schemas, there.
import { Field, ID, InputType, Int } from 'type-graphql';
import { UpdateFormInput } from '../forms/form.input.js';
import { CreateSiteInput, UpdateSiteInput } from '../sites/site.input.js';
import { UpdateWebhookInput } from '../webhooks/webhook.input.js';

@InputType('SetupSiteUpdateInput', { description: 'As `updateSite(id, input)`.' })
export class SetupSiteUpdateInput {
  @Field(() => ID)
  id!: string;

  @Field(() => UpdateSiteInput)
  input!: UpdateSiteInput;
}

@InputType('SetupFormCreateInput', {
  description: 'As `createForm(input: { siteId, name })`, then `updateForm` with `settings` on the new form.',
})
export class SetupFormCreateInput {
  @Field(() => ID, { nullable: true, description: 'A live site; or leave it out and give `siteChange`.' })
  siteId?: string | null;

  @Field(() => Int, { nullable: true, description: 'The index of an earlier `createSite` change in this list.' })
  siteChange?: number | null;

  @Field(() => String)
  name!: string;

  @Field(() => UpdateFormInput, { nullable: true })
  settings?: UpdateFormInput | null;
}

@InputType('SetupFormUpdateInput', { description: 'As `updateForm(id, input)`.' })
export class SetupFormUpdateInput {
  @Field(() => ID)
  id!: string;

  @Field(() => UpdateFormInput)
  input!: UpdateFormInput;
}

@InputType('SetupWebhookCreateInput', { description: 'As `createWebhook(input: { formId, url, description })`.' })
export class SetupWebhookCreateInput {
  @Field(() => ID, { nullable: true, description: 'A live form; or leave it out and give `formChange`.' })
  formId?: string | null;

  @Field(() => Int, { nullable: true, description: 'The index of an earlier `createForm` change in this list.' })
  formChange?: number | null;

  @Field(() => String)
  url!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

@InputType('SetupWebhookUpdateInput', { description: 'As `updateWebhook(id, input)`.' })
export class SetupWebhookUpdateInput {
  @Field(() => ID)
  id!: string;

  @Field(() => UpdateWebhookInput)
  input!: UpdateWebhookInput;
}

@InputType('SetupChangeInput', { description: 'One change of a setup: exactly one field set.' })
export class SetupChangeInput {
  @Field(() => CreateSiteInput, { nullable: true })
  createSite?: CreateSiteInput | null;

  @Field(() => SetupSiteUpdateInput, { nullable: true })
  updateSite?: SetupSiteUpdateInput | null;

  @Field(() => SetupFormCreateInput, { nullable: true })
  createForm?: SetupFormCreateInput | null;

  @Field(() => SetupFormUpdateInput, { nullable: true })
  updateForm?: SetupFormUpdateInput | null;

  @Field(() => SetupWebhookCreateInput, { nullable: true })
  createWebhook?: SetupWebhookCreateInput | null;

  @Field(() => SetupWebhookUpdateInput, { nullable: true })
  updateWebhook?: SetupWebhookUpdateInput | null;
}
