import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { presentLimits } from './limits-presenter.js';
import { LimitsType } from './limits.type.js';

@Authorized()
@Resolver()
export class LimitsResolver {
  @Query(() => LimitsType)
  limits(@Ctx() { deps }: AdminContext): LimitsType {
    return presentLimits(deps.services.config);
  }
}
