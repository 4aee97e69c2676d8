// `SubmissionConnection.totalCount`, apart from the page: an exact count reads every matching
// submission (a million for an unfiltered big form, each text match rechecked on its row), so it
// runs only when a client asks for it. `countUpTo` stops at its limit, so it stays fast on any form
// (what the console shows). `searchIndexing`: whether a text query may still miss new submissions.
import { pendingSearchCount } from '@intake/shared/search';
import { Arg, Authorized, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { countSubmissions, countSubmissionsUpTo } from './count-submissions.js';
import { parseCountLimit } from '../validation/fields.js';
import type { AdminContext } from '../context.js';
import { SubmissionConnectionType, SubmissionCountUpToType } from './submission.type.js';

@Authorized()
@Resolver(() => SubmissionConnectionType)
export class SubmissionConnectionResolver {
  @FieldResolver(() => Int, { description: 'How many submissions the view and its filter hold (exact).' })
  totalCount(@Root() connection: SubmissionConnectionType, @Ctx() { em }: AdminContext): Promise<number> {
    return countSubmissions(em, connection.selection);
  }

  @FieldResolver(() => SubmissionCountUpToType, {
    description:
      'How many submissions the view and its filter hold, counted up to `limit` (1..10,000, default 1,000): ' +
      'exact when `more` is false. Within milliseconds on any form, where `totalCount` reads every match.',
  })
  countUpTo(
    @Root() connection: SubmissionConnectionType,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null | undefined,
    @Ctx() { em }: AdminContext,
  ): Promise<SubmissionCountUpToType> {
    return countSubmissionsUpTo(em, connection.selection, parseCountLimit(limit, 'limit'));
  }

  @FieldResolver(() => Boolean, {
    description:
      "Whether some of the form's submissions are not in the text search yet (the worker indexes each within " +
      'about a second of its arrival): while true, a `filter.query` may miss the newest. False: results are exact.',
  })
  async searchIndexing(@Root() connection: SubmissionConnectionType, @Ctx() { em }: AdminContext): Promise<boolean> {
    return (await pendingSearchCount(em, connection.formId)) > 0;
  }
}
