// Checks the permission table (permissions.ts) before every Query and Mutation field runs. A field
// without an entry is refused. What the caller may not see answers as if it did not exist (the
// answer the resolver gives for an unknown id: null, false, or NOT_FOUND), and a list of sites is
// cut to the visible ones; what they may see but not change (or read beyond their level) is
// FORBIDDEN. An object that does not exist at all is left to the resolver, which answers as before.
// An operation marked `recentSignIn` from a sign-in older than ten minutes is RECENT_SIGN_IN_REQUIRED.
import type { Em } from '@intake/shared/db';
import { DeliverySchema, FormSchema, SubmissionSchema, WebhookSchema } from '@intake/shared/entities';
import { isUuid } from '@intake/shared/site-token';
import { getNullableType, GraphQLBoolean, isNonNullType, type GraphQLResolveInfo } from 'graphql';
import type { MiddlewareFn } from 'type-graphql';
import type { AdminContext } from '../context.js';
import {
  forbidden,
  notFound,
  recentSignInRequired,
  secondFactorEnrolmentRequired,
  unauthenticated,
} from '../errors.js';
import {
  callerSiteLevel,
  holdsTeamPermission,
  levelCovers,
  mayUseTeamPermission,
  openDuringEnrolment,
  ruleOf,
  siteLevel,
  type SiteLocator,
  type SiteObject,
} from './permissions.js';
import { RECENT_SIGN_IN_SECONDS, signedInRecently } from './recent-sign-in.js';

const OBJECT_NAMES: Record<SiteObject, string> = {
  site: 'Site',
  form: 'Form',
  submission: 'Submission',
  webhook: 'Webhook',
  delivery: 'Delivery',
};

function argumentAt(args: Record<string, unknown>, path: string): unknown {
  let value: unknown = args;
  for (const key of path.split('.')) {
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

async function formSite(em: Em, formId: string): Promise<string | null> {
  const form = await em.findOne(FormSchema, { id: formId }, { fields: ['site'] });
  return form?.site.id ?? null;
}

/** The site the object belongs to (deleted ones included), or null when there is no such object. */
async function siteOf(em: Em, object: SiteObject, id: string): Promise<string | null> {
  switch (object) {
    case 'site':
      return id;
    case 'form':
      return formSite(em, id);
    case 'submission': {
      const submission = await em.findOne(SubmissionSchema, { id }, { fields: ['form'] });
      return submission === null ? null : formSite(em, submission.form.id);
    }
    case 'webhook': {
      const webhook = await em.findOne(WebhookSchema, { id }, { fields: ['form'] });
      return webhook === null ? null : formSite(em, webhook.form.id);
    }
    case 'delivery': {
      const delivery = await em.findOne(DeliverySchema, { id }, { fields: ['form'] });
      // An invitation e-mail belongs to no form, so to no site: as if it did not exist.
      return delivery?.form ? formSite(em, delivery.form.id) : null;
    }
  }
}

function locatorParts(locator: SiteLocator): [SiteObject, string] {
  const [object, path] = Object.entries(locator)[0] as [SiteObject, string];
  return [object, path];
}

/** What a field that answers an object (not null, not a Boolean) says of one the caller may not see. */
export function notFoundAs(object: SiteObject): Error {
  return notFound(OBJECT_NAMES[object]);
}

/** The answer for an object the caller may not see: what the field answers for an unknown id. */
function asIfMissing(info: GraphQLResolveInfo, object: SiteObject): unknown {
  if (!isNonNullType(info.returnType)) {
    return null;
  }
  if (getNullableType(info.returnType) === GraphQLBoolean) {
    return false;
  }
  throw notFoundAs(object);
}

/**
 * Checks the table's entry of one root field for these arguments, as the guard does before the
 * field runs: throws what the caller may not do; answers the kind of object to answer as missing
 * when the caller may not see it, null when the field may run. Also used by the setup dry run
 * (setup/validate-setup.ts), so each change needs what its mutation needs.
 */
export async function authorizeField(
  context: AdminContext,
  rootType: string,
  field: string,
  args: Record<string, unknown>,
): Promise<SiteObject | null> {
  const rule = ruleOf(rootType, field);
  if (rule === undefined) {
    throw forbidden('This operation has no permission entry');
  }
  if (rule.permission === 'public') {
    return null;
  }
  const principal = context.principal;
  if (principal === null) {
    throw unauthenticated();
  }
  if (principal.kind === 'admin' && principal.mustEnrolSecondFactor && !openDuringEnrolment(rootType, field)) {
    throw secondFactorEnrolmentRequired();
  }
  const { member } = principal;
  if (!('site' in rule)) {
    if (rule.login === true && principal.kind !== 'admin') {
      throw forbidden('This operation needs an administrator login, not an API token');
    }
    if (!holdsTeamPermission(member, rule.permission)) {
      throw forbidden(`Your role (${member.role}) may not do this`);
    }
    if (!mayUseTeamPermission(principal, rootType, rule.permission)) {
      throw forbidden("This API token's scope does not allow this");
    }
    if (rule.recentSignIn === true && principal.kind === 'admin' && !signedInRecently(principal.signedInAt)) {
      const methods = await context.deps.proofMethods(context.deps.services.db.em.fork(), member.id);
      throw recentSignInRequired(methods, RECENT_SIGN_IN_SECONDS);
    }
    return null;
  }
  if (rule.site === 'each') {
    return null;
  }
  const [object, path] = locatorParts(rule.site);
  const id = argumentAt(args, path);
  // Not an id: the resolver refuses the argument as it does for anyone.
  const siteId = isUuid(id) ? await siteOf(context.deps.services.db.em.fork(), object, id) : null;
  if (siteId === null) {
    return null;
  }
  const level = callerSiteLevel(principal, siteId);
  if (level === null) {
    return object;
  }
  if (!levelCovers(level, rule.permission)) {
    throw forbidden(
      principal.kind === 'api_token' && siteLevel(member, siteId) === 'manage'
        ? "This API token's scope is read-only"
        : 'Your access to this site is read-only',
    );
  }
  return null;
}

export const permissionGuard: MiddlewareFn<AdminContext> = async ({ args, context, info }, next) => {
  if (info.path.prev !== undefined) {
    return next();
  }
  const hidden = await authorizeField(context, info.parentType.name, info.fieldName, args);
  if (hidden !== null) {
    return asIfMissing(info, hidden);
  }
  const rule = ruleOf(info.parentType.name, info.fieldName);
  if (rule !== undefined && 'site' in rule && rule.site === 'each' && context.principal !== null) {
    const principal = context.principal;
    const sites = (await next()) as { id: string }[];
    return sites.filter((site) => callerSiteLevel(principal, site.id) !== null);
  }
  return next();
};
