// `SubmissionConnection.totalCount`, apart from the page: an exact count reads every matching
// submission (a million for an unfiltered big form, each text match rechecked on its row), so it
// runs only when a client asks for it, and a client that wants the page first can ask for the count
// in a second request. `searchIndexing`: whether a text query may still miss new submissions.
import { pendingSearchCount } from '@intake/shared/search';
import { Authorized, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { countSubmissions } from './count-submissions.js';
import type { AdminContext } from '../context.js';
import { SubmissionConnectionType } from './submission.type.js';

@Authorized()
@Resolver(() => SubmissionConnectionType)
export class SubmissionConnectionResolver {
  @FieldResolver(() => Int, { description: 'How many submissions the view and its filter hold (exact).' })
  totalCount(@Root() connection: SubmissionConnectionType, @Ctx() { em }: AdminContext): Promise<number> {
    return countSubmissions(em, connection.selection);
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
