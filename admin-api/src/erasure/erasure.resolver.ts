// Erasure on request: find the submissions holding a person's e-mail address or phone number across
// every site and form (deleted ones and spam included), then erase the chosen ones with everything
// holding their data. The value searched for is never logged nor echoed in an error.
import {
  ERASURE_CANDIDATES_MAX,
  ERASURE_IDS_MAX,
  ERASURE_VALUE_MAX_LENGTH,
  ERASURE_VALUE_MIN_LENGTH,
  eraseSubmissions,
  findErasureCandidates,
} from '@intake/shared/lifecycle';
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { erasureIds, erasureValue } from './erasure-inputs.js';
import type { AdminContext } from '../context.js';
import { ErasureCandidateType, ErasureResultType } from './erasure.type.js';
import { parseInput } from '../validation/parse-input.js';

@Authorized()
@Resolver()
export class ErasureResolver {
  @Query(() => [ErasureCandidateType], {
    description:
      `Submissions in which any value, at any depth, equals \`value\` (${ERASURE_VALUE_MIN_LENGTH}..` +
      `${ERASURE_VALUE_MAX_LENGTH} characters): a phone number (digits, spaces and + ( ) - ., at least 5 digits) ` +
      'ignoring spaces and those separators, anything else (an e-mail address) trimmed and case-insensitively. ' +
      `Across all sites and forms, deleted ones and spam included; newest first, at most ${ERASURE_CANDIDATES_MAX}. ` +
      'A full scan: meant for occasional requests.',
  })
  async erasureCandidates(
    @Arg('value', () => String) value: string,
    @Ctx() { em }: AdminContext,
  ): Promise<ErasureCandidateType[]> {
    // The search and the erasure are commands of @intake/shared (lifecycle/erasure.ts).
    const candidates = await findErasureCandidates(em, parseInput(erasureValue, value, 'value'));
    return candidates.map((candidate) => ({ ...candidate, createdAt: candidate.createdAt.toISOString() }));
  }

  @Mutation(() => ErasureResultType, {
    description:
      `Erases these submissions (1..${ERASURE_IDS_MAX} ids) with their stored files, their deliveries ` +
      '(webhook and e-mail, pending or done) and the attempts of those. Ids already gone are listed as not found.',
  })
  async eraseSubmissions(
    @Arg('ids', () => [ID]) ids: string[],
    @Ctx() { deps, logger, requestId }: AdminContext,
  ): Promise<ErasureResultType> {
    const result = await eraseSubmissions(deps.services, parseInput(erasureIds, ids, 'ids'));
    // Counts only: which person asked is not the service's to log.
    logger.info(
      {
        requestId,
        erased: result.erasedIds.length,
        notFound: result.notFoundIds.length,
        files: result.fileCount,
        deliveries: result.deliveryCount,
      },
      'submissions erased on request',
    );
    return result;
  }
}
