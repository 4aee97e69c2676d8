// Exports of a form's submissions: the mutation checks the form and signs a short-lived link that
// carries what to export; GET /exports/<token> (export-route.ts) streams it.
import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { createSubmissionExport } from './create-submission-export.js';
import type { AdminContext } from '../context.js';
import { submissionFilterOf } from '../lib/submission-filter-fields.js';
import { SubmissionFilterInput } from '../lib/submission-filter.input.js';
import { InputArg } from '../validation/input-type.js';
import { SubmissionExportFormatEnum, SubmissionExportType } from './submission-export.type.js';
import { parseId } from '../validation/fields.js';

@Authorized()
@Resolver()
export class SubmissionExportResolver {
  @Mutation(() => SubmissionExportType, {
    description:
      "A link that downloads the form's submissions, newest first, as the inbox (`spam: false`, the default) " +
      'or the Spam view (`spam: true`) lists them with `filter`. Valid for DOWNLOAD_URL_TTL_SECONDS; the download may take longer.',
  })
  async createSubmissionExport(
    @Arg('formId', () => ID) formId: string,
    @Arg('format', () => SubmissionExportFormatEnum) format: SubmissionExportFormatEnum,
    @InputArg('filter', SubmissionFilterInput, { nullable: true }) filterInput: SubmissionFilterInput | null,
    @Arg('spam', () => Boolean, { nullable: true, defaultValue: false }) spam: boolean | null | undefined,
    @Arg('notes', () => Boolean, {
      nullable: true,
      defaultValue: false,
      description: "true: each submission's internal notes too (author, time, text); they stay out otherwise.",
    })
    notes: boolean | null | undefined,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<SubmissionExportType> {
    const id = parseId(formId, 'formId');
    const filter = submissionFilterOf(filterInput);
    const link = await createSubmissionExport(em, deps.exportLinks, {
      formId: id,
      format,
      spam: spam === true,
      filter,
      notes: notes === true,
    });
    return { url: link.url, expiresAt: link.expiresAt.toISOString() };
  }
}
