// Figures the console lists beside sites and forms, each counted only when selected (see
// queries/statistics/site-and-form-counts.ts).
import { Authorized, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import {
  countFormSubmissions,
  countLiveForms,
  countRecentSubmissions,
  lastSubmissionAt,
} from '../queries/statistics/site-and-form-counts.js';
import type { AdminContext } from '../context.js';
import { FormType } from '../types/form.type.js';
import { SiteType } from '../types/site.type.js';

@Authorized()
@Resolver(() => SiteType)
export class SiteStatsResolver {
  @FieldResolver(() => Int, { description: 'Forms of the site that are not deleted.' })
  formCount(@Root() site: SiteType, @Ctx() { em }: AdminContext): Promise<number> {
    return countLiveForms(em, site.id);
  }

  @FieldResolver(() => Int, {
    description: 'Submissions to any form of the site in the last 7 days (spam not counted).',
  })
  submissionsLast7Days(@Root() site: SiteType, @Ctx() { em }: AdminContext): Promise<number> {
    return countRecentSubmissions(em, site.id);
  }
}

@Authorized()
@Resolver(() => FormType)
export class FormStatsResolver {
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

  @FieldResolver(() => String, {
    description: 'The full URL site backends POST to (PUBLIC_GATEWAY_URL, else the gateway as it listens).',
  })
  endpointUrl(@Root() form: FormType, @Ctx() { deps }: AdminContext): string {
    return `${deps.gatewayOrigin()}/api/v1/send/${encodeURIComponent(form.code)}`;
  }
}
