// Forms of a site. Deletion is soft and keeps the form's submissions: they are customer data that
// an administrator may still need to read or export, so they stay readable through
// `submissions(formId)` / `submission(id)` and are removed one by one with `deleteSubmission`. The
// deleted form disappears from `forms`, cannot be updated, and the gateway refuses its code.
import { FormSchema, generateFormCode } from '@intake/shared';
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { presentForm } from '../presenters/form.js';
import { badUserInput } from '../schema/errors.js';
import { CreateFormInput, UpdateFormInput } from '../types/form.input.js';
import { FormType } from '../types/form.type.js';
import { parseNotifyEmails } from '../validation/delivery-fields.js';
import { parseId, parseMaxFileSize, parseMimeTypes, parseName } from '../validation/fields.js';
import { findLiveForm, liveFormsOf, requireLiveForm, requireLiveSite } from './lookup.js';

@Authorized()
@Resolver()
export class FormResolver {
  @Query(() => [FormType], { description: 'Forms of a live site that are not deleted, oldest first.' })
  async forms(@Arg('siteId', () => ID) siteId: string, @Ctx() { em, deps }: AdminContext): Promise<FormType[]> {
    const site = await requireLiveSite(em, parseId(siteId, 'siteId'));
    const forms = await liveFormsOf(em, site.id);
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
    const siteId = parseId(input.siteId, 'input.siteId');
    const name = parseName(input.name, 'input.name');
    const notifyEmails = parseNotifyEmails(input.notifyEmails ?? null, 'input.notifyEmails');
    const site = await requireLiveSite(em, siteId);
    const form = em.create(FormSchema, { site, name, code: generateFormCode(), enabled: true, notifyEmails });
    await em.flush();
    return presentForm(form, deps.services.config.limits.maxFileSize);
  }

  @Mutation(() => FormType)
  async updateForm(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateFormInput) input: UpdateFormInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<FormType> {
    const formId = parseId(id, 'id');
    const globalMaxFileSize = deps.services.config.limits.maxFileSize;
    // Validate everything first, so a bad field changes nothing.
    const name = input.name === undefined ? undefined : parseName(input.name, 'input.name');
    if (input.enabled === null) {
      throw badUserInput('input.enabled', 'cannot be null');
    }
    const allowedMimeTypes =
      input.allowedMimeTypes === undefined
        ? undefined
        : parseMimeTypes(input.allowedMimeTypes, 'input.allowedMimeTypes');
    const maxFileSize =
      input.maxFileSize === undefined
        ? undefined
        : parseMaxFileSize(input.maxFileSize, globalMaxFileSize, 'input.maxFileSize');

    const notifyEmails =
      input.notifyEmails === undefined ? undefined : parseNotifyEmails(input.notifyEmails, 'input.notifyEmails');

    const form = await requireLiveForm(em, formId);
    if (notifyEmails !== undefined) {
      form.notifyEmails = notifyEmails;
    }
    if (name !== undefined) {
      form.name = name;
    }
    if (input.enabled !== undefined) {
      form.enabled = input.enabled;
    }
    if (allowedMimeTypes !== undefined) {
      form.allowedMimeTypes = allowedMimeTypes;
    }
    if (maxFileSize !== undefined) {
      form.maxFileSize = maxFileSize;
    }
    await em.flush();
    return presentForm(form, globalMaxFileSize);
  }

  @Mutation(() => Boolean, {
    description: 'Soft delete; false when there was no such live form. Its submissions are kept.',
  })
  async deleteForm(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<boolean> {
    const now = new Date();
    const deleted = await em.nativeUpdate(
      FormSchema,
      { id: parseId(id, 'id'), deletedAt: null },
      { deletedAt: now, updatedAt: now },
    );
    return deleted > 0;
  }
}
