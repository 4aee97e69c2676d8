// Forms of a site. Deletion is soft and keeps the form's submissions: they are customer data that
// an administrator may still need to read or export, so they stay readable through
// `submissions(formId)` / `submission(id)` and are removed one by one with `deleteSubmission`. The
// deleted form disappears from `forms`, cannot be updated, and the gateway refuses its code.
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { createForm } from './create-form.js';
import { deleteForm } from './delete-form.js';
import { listForms } from './list-forms.js';
import { updateForm } from './update-form.js';
import { findLiveForm } from '../lib/live-finders.js';
import { nextRetentionDeletion } from './next-retention-deletion.js';
import { countFormSubmissions, lastSubmissionAt } from '../lib/site-and-form-counts.js';
import type { AdminContext } from '../context.js';
import { browserFormHtml } from './browser-form-html.js';
import { presentForm } from './presenters.js';
import { CreateFormInput, UpdateFormInput } from './form.input.js';
import { FormClosedReasonEnum, FormType } from './form.type.js';
import { cappedSubmissions, formClosedReason } from './form-closed-reason.js';
import { parseId } from '../validation/fields.js';
import { InputArg } from '../validation/input-type.js';

@Authorized()
@Resolver()
export class FormResolver {
  @Query(() => [FormType], { description: 'Forms of a live site that are not deleted, oldest first.' })
  async forms(@Arg('siteId', () => ID) siteId: string, @Ctx() { em, deps }: AdminContext): Promise<FormType[]> {
    const forms = await listForms(em, parseId(siteId, 'siteId'));
    return forms.map((form) => presentForm(form, deps.services.config));
  }

  @Query(() => FormType, { nullable: true, description: 'Null when there is no such form or it was deleted.' })
  async form(@Arg('id', () => ID) id: string, @Ctx() { em, deps }: AdminContext): Promise<FormType | null> {
    const form = await findLiveForm(em, parseId(id, 'id'));
    return form === null ? null : presentForm(form, deps.services.config);
  }

  @Mutation(() => FormType)
  async createForm(
    @InputArg('input', CreateFormInput) input: CreateFormInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<FormType> {
    const form = await createForm(em, input);
    return presentForm(form, deps.services.config);
  }

  @Mutation(() => FormType)
  async updateForm(
    @Arg('id', () => ID) id: string,
    @InputArg('input', UpdateFormInput) input: UpdateFormInput,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<FormType> {
    const { config } = deps.services;
    const form = await updateForm(em, config.tokenEncryptionKey, parseId(id, 'id'), input);
    return presentForm(form, config);
  }

  @Mutation(() => Boolean, {
    description: 'Soft delete; false when there was no such live form. Its submissions are kept.',
  })
  async deleteForm(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<boolean> {
    return deleteForm(em, parseId(id, 'id'));
  }
}

// Figures the console lists beside forms, each counted only when selected (see
// lib/site-and-form-counts.ts), the endpoint URL, and retention's next deletion.
@Authorized()
@Resolver(() => FormType)
export class FormFieldsResolver {
  @FieldResolver(() => Int, { description: 'Submissions in the inbox of this form (spam not counted).' })
  submissionCount(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<number> {
    return countFormSubmissions(em, form.id, false);
  }

  @FieldResolver(() => Int, { description: 'Submissions of this form in the Spam view.' })
  spamCount(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<number> {
    return countFormSubmissions(em, form.id, true);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'ISO 8601: the newest submission in the inbox; null when none.',
  })
  async lastSubmissionAt(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<string | null> {
    const newest = await lastSubmissionAt(em, form.id);
    return newest === null ? null : newest.toISOString();
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description:
      'With maxSubmissions: the submissions counted toward it (spam aside; a deleted one still counts). Null without a cap.',
  })
  async cappedSubmissions(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<number | null> {
    return form.maxSubmissions === null ? null : cappedSubmissions(em, form.id);
  }

  @FieldResolver(() => FormClosedReasonEnum, {
    nullable: true,
    description:
      'Why the gateway refuses submissions now (403 form_closed); null while the schedule and cap let them in.',
  })
  closedReason(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<FormClosedReasonEnum | null> {
    return formClosedReason(em, form);
  }

  @FieldResolver(() => String, {
    description:
      "The full URL site backends POST to, on the gateway's public origin (PUBLIC_URL or PUBLIC_GATEWAY_URL; unset: beside the address this request came to).",
  })
  endpointUrl(@Root() form: FormType, @Ctx() { deps }: AdminContext): string {
    return `${deps.gatewayOrigin()}/api/v1/send/${encodeURIComponent(form.code)}`;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'With browserPosting on: an HTML form to paste into a static page as it is (docs/static-sites.md); it holds ' +
      'no key and no token. Null otherwise.',
  })
  async browserFormHtml(@Root() form: FormType, @Ctx() { em, deps }: AdminContext): Promise<string | null> {
    if (!form.browserPosting) {
      return null;
    }
    const stored = await findLiveForm(em, form.id);
    return stored === null ? null : browserFormHtml(stored, deps.gatewayOrigin(), deps.services.config);
  }

  // When the form's retention will next delete something: asked per form on request (the settings
  // page shows it).
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'ISO 8601: when the oldest submission (spam included) expires under retentionDays, not before now (the ' +
      'retention run after this moment deletes it, at most an hour later); null without a retention or submissions.',
  })
  async retentionNextDeletionAt(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<string | null> {
    const due = await nextRetentionDeletion(em, form.id, form.retentionDays);
    return due === null ? null : due.toISOString();
  }
}
