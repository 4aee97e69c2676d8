// The scope of a new API token from what was asked: the defaults filled in (the member's
// role-appropriate level, every site, 90 days) and checked against the member right now: only an
// owner makes a token that never ends, and a site list names only sites the member may see.
import type { Em } from '@intake/shared/db';
import { SiteSchema, type ApiTokenLevel } from '@intake/shared/entities';
import { DEFAULT_TOKEN_LEVEL, siteLevel } from '../access/permissions.js';
import type { Member } from '../access/principal.js';
import { badUserInput, forbidden } from '../errors.js';
import { TOKEN_DAYS_DEFAULT, type ApiTokenScopeInput } from './api-token.input.js';
import type { ApiTokenScope } from './create-api-token.js';

const DAY_MS = 86_400_000;

export async function resolveTokenScope(
  em: Em,
  member: Member,
  asked: ApiTokenScopeInput | null,
  now: Date,
): Promise<ApiTokenScope> {
  const ends = [asked?.expiresInDays, asked?.expiresAt, asked?.noExpiry === true ? true : null].filter(
    (value) => value !== null && value !== undefined,
  );
  if (ends.length > 1) {
    throw badUserInput('scope', 'may give only one of expiresInDays, expiresAt and noExpiry');
  }
  if (asked?.noExpiry === true && member.role !== 'owner') {
    throw forbidden('Only an owner may create a token that never ends');
  }
  const expiresAt =
    asked?.noExpiry === true
      ? null
      : (asked?.expiresAt ?? new Date(now.getTime() + (asked?.expiresInDays ?? TOKEN_DAYS_DEFAULT) * DAY_MS));

  const siteIds = asked?.siteIds ?? null;
  if (siteIds !== null) {
    const live = await em.find(SiteSchema, { id: { $in: siteIds }, deletedAt: null }, { fields: ['id'] });
    const visible = new Set(live.map((site) => site.id).filter((id) => siteLevel(member, id) !== null));
    // Said alike for a site that does not exist and one the member may not see.
    if (siteIds.some((id) => !visible.has(id))) {
      throw badUserInput('scope.siteIds', 'names a site you cannot see');
    }
  }
  return {
    level: (asked?.level as ApiTokenLevel | null | undefined) ?? DEFAULT_TOKEN_LEVEL[member.role],
    siteIds,
    expiresAt,
  };
}
