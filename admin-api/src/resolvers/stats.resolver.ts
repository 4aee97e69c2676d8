// Figures the console lists beside sites and forms. Counted per object on request: a page lists a
// few dozen sites or forms, each count is served by an index (forms by site, submissions by form
// and date), and a field nobody selects costs nothing.
import { FormSchema, SubmissionSchema } from '@intake/shared';
import { Authorized, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { FormType } from '../types/form.type.js';
import { SiteType } from '../types/site.type.js';

const RECENT_DAYS = 7;

@Authorized()
@Resolver(() => SiteType)
export class SiteStatsResolver {
  @FieldResolver(() => Int, { description: 'Forms of the site that are not deleted.' })
  formCount(@Root() site: SiteType, @Ctx() { em }: AdminContext): Promise<number> {
    return em.count(FormSchema, { site: site.id, deletedAt: null });
  }

  @FieldResolver(() => Int, {
    description: 'Submissions to any form of the site in the last 7 days (spam not counted).',
  })
  submissionsLast7Days(@Root() site: SiteType, @Ctx() { em }: AdminContext): Promise<number> {
    const since = new Date(Date.now() - RECENT_DAYS * 24 * 60 * 60 * 1000);
    return em.count(SubmissionSchema, { form: { site: site.id }, spam: false, createdAt: { $gte: since } });
  }
}

@Authorized()
@Resolver(() => FormType)
export class FormStatsResolver {
  @FieldResolver(() => Int, { description: 'Submissions in the inbox of this form (spam not counted).' })
  submissionCount(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<number> {
    return em.count(SubmissionSchema, { form: form.id, spam: false });
  }

  @FieldResolver(() => Int, { description: 'Submissions of this form in the Spam view.' })
  spamCount(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<number> {
    return em.count(SubmissionSchema, { form: form.id, spam: true });
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'ISO 8601: the newest submission in the inbox; null when none.',
  })
  async lastSubmissionAt(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<string | null> {
    const newest = await em.findOne(
      SubmissionSchema,
      { form: form.id, spam: false },
      { orderBy: { createdAt: 'desc', id: 'desc' }, fields: ['createdAt'] },
    );
    return newest === null ? null : newest.createdAt.toISOString();
  }

  @FieldResolver(() => String, {
    description: 'The full URL site backends POST to (PUBLIC_GATEWAY_URL, else the gateway as it listens).',
  })
  endpointUrl(@Root() form: FormType, @Ctx() { deps }: AdminContext): string {
    return `${deps.gatewayOrigin()}/api/v1/send/${encodeURIComponent(form.code)}`;
  }
}
