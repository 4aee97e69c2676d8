// Forms of a site. Deletion is soft and keeps the form's submissions: they are customer data that
// an administrator may still need to read or export, so they stay readable through
// `submissions(formId)` / `submission(id)` and are removed one by one with `deleteSubmission`. The
// deleted form disappears from `forms`, cannot be updated, and the gateway refuses its code.
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { createForm, createFormInput } from '../commands/forms/create-form.js';
import { deleteForm } from '../commands/forms/delete-form.js';
import { listForms } from '../queries/forms/list-forms.js';
import { updateForm, updateFormInput } from '../commands/forms/update-form.js';
import { findLiveForm } from '../queries/live-finders.js';
import type { AdminContext } from '../context.js';
import { presentForm } from '../presenters/form.js';
import { CreateFormInput, UpdateFormInput } from '../types/form.input.js';
import { FormType } from '../types/form.type.js';
import { parseId } from '../validation/fields.js';
import { parseInput } from '../validation/parse-input.js';

@Authorized()
@Resolver()
export class FormResolver {
  @Query(() => [FormType], { description: 'Forms of a live site that are not deleted, oldest first.' })
  async forms(@Arg('siteId', () => ID) siteId: string, @Ctx() { em, deps }: AdminContext): Promise<FormType[]> {
    const forms = await listForms(em, parseId(siteId, 'siteId'));
    return forms.map((form) => presentForm(form, deps.services.config.limits.maxFileSize));
  }

  @Query(() => FormType, { nullable: true, description: 'Null when there is no such form or it was deleted.' })
  async form(@Arg('id', () => ID) id: string, @Ctx() { em, deps }: AdminContext): Promise<FormType | null> {
    const form = await findLiveForm(em, parseId(id, 'id'));
    return form === null ? null : presentForm(form, deps.services.config.limits.maxFileSize);
  }

  @Mutation(() => FormType)
  async createForm(
    @Arg('input', () => CreateFormInput) input: CreateFormInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<FormType> {
    const form = await createForm(em, parseInput(createFormInput, input, 'input'));
    return presentForm(form, deps.services.config.limits.maxFileSize);
  }

  @Mutation(() => FormType)
  async updateForm(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateFormInput) input: UpdateFormInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<FormType> {
    const { limits, tokenEncryptionKey } = deps.services.config;
    const formId = parseId(id, 'id');
    const checked = parseInput(updateFormInput(limits.maxFileSize), input, 'input');
    return presentForm(await updateForm(em, tokenEncryptionKey, formId, checked), limits.maxFileSize);
  }

  @Mutation(() => Boolean, {
    description: 'Soft delete; false when there was no such live form. Its submissions are kept.',
  })
  async deleteForm(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<boolean> {
    return deleteForm(em, parseId(id, 'id'));
  }
}
