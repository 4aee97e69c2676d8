import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { presentLimits } from '../presenters/limits.js';
import { LimitsType } from '../types/limits.type.js';

@Authorized()
@Resolver()
export class LimitsResolver {
  @Query(() => LimitsType)
  limits(@Ctx() { deps }: AdminContext): LimitsType {
    return presentLimits(deps.services.config);
  }
}
