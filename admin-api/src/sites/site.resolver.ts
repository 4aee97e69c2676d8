// Sites: CRUD, the site API view (token + forms) and token rotation. Deletion is soft: the site
// keeps its rows (and its forms' submissions stay readable) but disappears from `sites`/`site`, and
// its tokens fail at once because `verifySiteToken` refuses a site with `deletedAt`.
import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { callerSiteLevel } from '../access/permissions.js';
import { findLiveSite, requireLiveSite } from '../lib/live-finders.js';
import { createSite } from './create-site.js';
import { deleteSite } from './delete-site.js';
import { listSites } from './list-sites.js';
import { rotateSiteToken } from './rotate-site-token.js';
import { countLiveForms, countRecentSubmissions } from '../lib/site-and-form-counts.js';
import { siteApiView, type SiteApiView } from './site-api-view.js';
import { updateSite } from './update-site.js';
import type { AdminContext } from '../context.js';
import { presentForm } from '../forms/presenters.js';
import { presentSite, presentSiteApiView } from './presenters.js';
import { SiteApiViewType, SiteType } from './site.type.js';
import { CreateSiteInput, UpdateSiteInput } from './site.input.js';
import { parseId } from '../validation/fields.js';
import { InputArg } from '../validation/input-type.js';

function presentView(view: SiteApiView, { deps }: AdminContext): SiteApiViewType {
  return presentSiteApiView(
    view.site,
    view.token,
    view.forms.map((form) => presentForm(form, deps.services.config)),
  );
}

@Authorized()
@Resolver()
export class SiteResolver {
  @Query(() => [SiteType], { description: 'Sites that are not deleted, oldest first.' })
  async sites(@Ctx() { em }: AdminContext): Promise<SiteType[]> {
    return (await listSites(em)).map(presentSite);
  }

  @Query(() => SiteType, { nullable: true, description: 'Null when there is no such site or it was deleted.' })
  async site(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<SiteType | null> {
    const site = await findLiveSite(em, parseId(id, 'id'));
    return site === null ? null : presentSite(site);
  }

  @Query(() => SiteApiViewType)
  async siteApiView(@Arg('siteId', () => ID) siteId: string, @Ctx() context: AdminContext): Promise<SiteApiViewType> {
    const site = await requireLiveSite(context.em, parseId(siteId, 'siteId'));
    return presentView(await siteApiView(context.em, context.deps.services, site), context);
  }

  @Mutation(() => SiteType)
  async createSite(
    @InputArg('input', CreateSiteInput) input: CreateSiteInput,
    @Ctx() { em }: AdminContext,
  ): Promise<SiteType> {
    return presentSite(await createSite(em, input));
  }

  @Mutation(() => SiteType)
  async updateSite(
    @Arg('id', () => ID) id: string,
    @InputArg('input', UpdateSiteInput) input: UpdateSiteInput,
    @Ctx() { em }: AdminContext,
  ): Promise<SiteType> {
    return presentSite(await updateSite(em, parseId(id, 'id'), input));
  }

  @Mutation(() => Boolean, {
    description:
      'Soft delete; false when there was no such live site. Its forms are deleted too; submissions are kept.',
  })
  async deleteSite(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<boolean> {
    return deleteSite(em, parseId(id, 'id'));
  }

  @Mutation(() => SiteApiViewType, { description: 'New control code: every earlier token of the site stops working.' })
  async rotateSiteToken(
    @Arg('siteId', () => ID) siteId: string,
    @Ctx() context: AdminContext,
  ): Promise<SiteApiViewType> {
    const site = await rotateSiteToken(context.em, parseId(siteId, 'siteId'));
    return presentView(await siteApiView(context.em, context.deps.services, site), context);
  }
}

// Figures the console lists beside sites, each counted only when selected (see
// lib/site-and-form-counts.ts).
@Authorized()
@Resolver(() => SiteType)
export class SiteFieldsResolver {
  @FieldResolver(() => Boolean, {
    description:
      'Whether the caller may change the site (`site:manage` on it: its forms, settings, webhooks, token); false when they only read it.',
  })
  viewerCanManage(@Root() site: SiteType, @Ctx() { principal }: AdminContext): boolean {
    return principal !== null && callerSiteLevel(principal, site.id) === 'manage';
  }

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
