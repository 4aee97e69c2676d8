// API tokens for integrators. Creating one needs an administrator login (an API token cannot mint
// more of itself); listing and revoking work with either kind of token.
import { AdminUserSchema, ApiTokenSchema } from '@intake/shared';
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { generateApiToken } from '../auth/api-token.js';
import { Role } from '../auth/principal.js';
import type { AdminContext } from '../context.js';
import { presentApiToken } from '../presenters/auth.js';
import { unauthenticated } from '../schema/errors.js';
import { ApiTokenType, CreatedApiTokenType } from '../types/api-token.type.js';
import { parseId, parseName } from '../validation/fields.js';

@Authorized()
@Resolver()
export class ApiTokenResolver {
  @Authorized(Role.SESSION)
  @Mutation(() => CreatedApiTokenType, { description: 'The secret is in this answer only; only its sha256 is stored.' })
  async createApiToken(
    @Arg('name', () => String) name: string,
    @Ctx() { em, principal }: AdminContext,
  ): Promise<CreatedApiTokenType> {
    const tokenName = parseName(name, 'name');
    if (principal?.kind !== 'admin') {
      throw unauthenticated();
    }
    const { token, tokenHash } = generateApiToken();
    const apiToken = em.create(ApiTokenSchema, {
      name: tokenName,
      tokenHash,
      createdBy: em.getReference(AdminUserSchema, principal.adminId),
      lastUsedAt: null,
      revokedAt: null,
    });
    await em.flush();
    return { token, apiToken: presentApiToken(apiToken) };
  }

  @Query(() => [ApiTokenType], { description: 'Tokens that are not revoked, oldest first.' })
  async apiTokens(@Ctx() { em }: AdminContext): Promise<ApiTokenType[]> {
    const tokens = await em.find(ApiTokenSchema, { revokedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return tokens.map(presentApiToken);
  }

  @Mutation(() => Boolean, { description: 'The token stops working at once; false when there was no such live token.' })
  async revokeApiToken(@Arg('id', () => ID) id: string, @Ctx() { em }: AdminContext): Promise<boolean> {
    const revoked = await em.nativeUpdate(
      ApiTokenSchema,
      { id: parseId(id, 'id'), revokedAt: null },
      { revokedAt: new Date() },
    );
    return revoked > 0;
  }
}
