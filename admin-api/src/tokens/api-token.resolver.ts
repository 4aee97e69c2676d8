// API tokens for integrators. Creating one needs a login (an API token cannot mint more of itself);
// listing and revoking work with either kind of token. A token acts for the member who created it;
// a member lists and revokes their own tokens, an owner or admin (`tokens:all`) everyone's.
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { mayUseTeamPermission } from '../access/permissions.js';
import type { Principal } from '../access/principal.js';
import { createApiToken } from './create-api-token.js';
import { listApiTokens } from './list-api-tokens.js';
import { revokeApiToken } from './revoke-api-token.js';
import { resolveTokenScope } from './token-scope.js';
import type { AdminContext } from '../context.js';
import { presentApiToken } from './presenters.js';
import { unauthenticated } from '../errors.js';
import { ApiTokenScopeInput } from './api-token.input.js';
import { ApiTokenType, CreatedApiTokenType } from './api-token.type.js';
import { name as nameField, parseId } from '../validation/fields.js';
import { InputArg } from '../validation/input-type.js';
import { parseInput } from '../validation/parse-input.js';

/** Whose tokens the caller reaches: null for every member's, else their own id. */
function tokensOf(principal: Principal | null, rootType: 'Query' | 'Mutation'): string | null {
  if (principal === null) {
    throw unauthenticated();
  }
  return mayUseTeamPermission(principal, rootType, 'tokens:all') ? null : principal.member.id;
}

@Authorized()
@Resolver()
export class ApiTokenResolver {
  @Mutation(() => CreatedApiTokenType, {
    description:
      'The secret is in this answer only; only its sha256 is stored. It never does more than its member may do at the time of each request.',
  })
  async createApiToken(
    @Arg('name', () => String) name: string,
    @InputArg('scope', ApiTokenScopeInput, { nullable: true }) asked: ApiTokenScopeInput | null,
    @Ctx() { em, principal }: AdminContext,
  ): Promise<CreatedApiTokenType> {
    const tokenName = parseInput(nameField, name, 'name');
    if (principal?.kind !== 'admin') {
      throw unauthenticated();
    }
    const scope = await resolveTokenScope(em, principal.member, asked, new Date());
    const { token, apiToken } = await createApiToken(em, principal.adminId, tokenName, scope);
    return { token, apiToken: presentApiToken(apiToken) };
  }

  @Query(() => [ApiTokenType], {
    description:
      "Tokens that are not revoked, oldest first: every member's for an owner or admin, else the caller's own.",
  })
  async apiTokens(
    @Arg('mine', () => Boolean, {
      defaultValue: false,
      description: "Only the caller's own tokens, whatever their role (the console's account page).",
    })
    mine: boolean,
    @Ctx() { em, principal }: AdminContext,
  ): Promise<ApiTokenType[]> {
    const whose = mine && principal !== null ? principal.member.id : tokensOf(principal, 'Query');
    return (await listApiTokens(em, whose)).map(presentApiToken);
  }

  @Mutation(() => Boolean, { description: 'The token stops working at once; false when there was no such live token.' })
  async revokeApiToken(@Arg('id', () => ID) id: string, @Ctx() { em, principal }: AdminContext): Promise<boolean> {
    return revokeApiToken(em, parseId(id, 'id'), tokensOf(principal, 'Mutation'));
  }
}
