// Sites: CRUD, the site API view (token + forms) and token rotation. Deletion is soft: the site
// keeps its rows (and its forms' submissions stay readable) but disappears from `sites`/`site`, and
// its tokens fail at once because `verifySiteToken` refuses a site with `deletedAt`.
import { FormSchema, generateControlCode, SiteSchema, type Site } from '@intake/shared';
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { presentForm } from '../presenters/form.js';
import { presentSite, presentSiteApiView } from '../presenters/site.js';
import { SiteApiViewType, SiteType } from '../types/site.type.js';
import { CreateSiteInput, UpdateSiteInput } from '../types/site.input.js';
import { parseDomain, parseId, parseName } from '../validation/fields.js';
import { findLiveSite, liveFormsOf, requireLiveSite } from './lookup.js';

async function siteApiView(context: AdminContext, site: Site): Promise<SiteApiViewType> {
  const { services } = context.deps;
  const forms = await liveFormsOf(context.em, site.id);
  const token = services.siteTokens.issue(site.id, site.controlCode);
  return presentSiteApiView(
    site,
    token,
    forms.map((form) => presentForm(form, services.config.limits.maxFileSize)),
  );
}

@Authorized()
@Resolver()
export class SiteResolver {
  @Query(() => [SiteType], { description: 'Sites that are not deleted, oldest first.' })
  async sites(@Ctx() { em }: AdminContext): Promise<SiteType[]> {
    const sites = await em.find(SiteSchema, { deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return sites.map(presentSite);
  }

  @Query(() => SiteType, { nullable: true, description: 'Null when there is no such site or it was deleted.' })
  async site(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<SiteType | null> {
    const site = await findLiveSite(em, parseId(id, 'id'));
    return site === null ? null : presentSite(site);
  }

  @Query(() => SiteApiViewType)
  async siteApiView(@Arg('siteId', () => ID) siteId: string, @Ctx() context: AdminContext): Promise<SiteApiViewType> {
    const site = await requireLiveSite(context.em, parseId(siteId, 'siteId'));
    return siteApiView(context, site);
  }

  @Mutation(() => SiteType)
  async createSite(
    @Arg('input', () => CreateSiteInput) input: CreateSiteInput,
    @Ctx() { em }: AdminContext,
  ): Promise<SiteType> {
    const site = em.create(SiteSchema, {
      name: parseName(input.name, 'input.name'),
      domain: parseDomain(input.domain, 'input.domain'),
      controlCode: generateControlCode(),
    });
    await em.flush();
    return presentSite(site);
  }

  @Mutation(() => SiteType)
  async updateSite(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateSiteInput) input: UpdateSiteInput,
    @Ctx() { em }: AdminContext,
  ): Promise<SiteType> {
    const siteId = parseId(id, 'id');
    // Validate everything before touching the entity, so a bad field changes nothing.
    const name = input.name === undefined ? undefined : parseName(input.name, 'input.name');
    const domain = input.domain === undefined ? undefined : parseDomain(input.domain, 'input.domain');
    const site = await requireLiveSite(em, siteId);
    if (name !== undefined) {
      site.name = name;
    }
    if (domain !== undefined) {
      site.domain = domain;
    }
    await em.flush();
    return presentSite(site);
  }

  @Mutation(() => Boolean, {
    description:
      'Soft delete; false when there was no such live site. Its forms are deleted too; submissions are kept.',
  })
  async deleteSite(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<boolean> {
    const siteId = parseId(id, 'id');
    return em.transactional(async (tx) => {
      const now = new Date();
      const deleted = await tx.nativeUpdate(
        SiteSchema,
        { id: siteId, deletedAt: null },
        { deletedAt: now, updatedAt: now },
      );
      if (deleted === 0) {
        return false;
      }
      // The gateway refuses the site's tokens already; closing its forms too means no path can
      // reach them even if a check were missed.
      await tx.nativeUpdate(FormSchema, { site: siteId, deletedAt: null }, { deletedAt: now, updatedAt: now });
      return true;
    });
  }

  @Mutation(() => SiteApiViewType, { description: 'New control code: every earlier token of the site stops working.' })
  async rotateSiteToken(
    @Arg('siteId', () => ID) siteId: string,
    @Ctx() context: AdminContext,
  ): Promise<SiteApiViewType> {
    const site = await requireLiveSite(context.em, parseId(siteId, 'siteId'));
    site.controlCode = generateControlCode();
    await context.em.flush();
    return siteApiView(context, site);
  }
}
