// The console home's statistics: submissions per form and refusals per code, per UTC day. The
// counting queries are shared with the gateway's statistics (@intake/shared statistics/).
import { lastUtcDays, readRefusalCounts, readSubmissionCounts } from '@intake/shared/statistics';
import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { presentRefusalStats, presentSubmissionStats } from './presenters.js';
import { RefusalStatsType, SubmissionStatsType } from './statistics.type.js';
import { STATISTICS_DAYS_DEFAULT, STATISTICS_DAYS_MAX, statisticsDays } from '../validation/fields.js';
import { parseInput } from '../validation/parse-input.js';

const DAYS_DESCRIPTION = `How many UTC days up to and including today: 1..${STATISTICS_DAYS_MAX}.`;

@Authorized()
@Resolver()
export class StatisticsResolver {
  @Query(() => SubmissionStatsType, {
    description: 'Submissions per form and UTC day over the last `days` days (spam counted apart).',
  })
  async submissionStats(
    @Arg('days', () => Int, { defaultValue: STATISTICS_DAYS_DEFAULT, description: DAYS_DESCRIPTION }) days: number,
    @Ctx() { em }: AdminContext,
  ): Promise<SubmissionStatsType> {
    const period = lastUtcDays(parseInput(statisticsDays, days, 'days'));
    return presentSubmissionStats(period, await readSubmissionCounts(em, period[0]!));
  }

  @Query(() => RefusalStatsType, {
    description:
      "The gateway's refusals (4xx and 503 answers of the intake route) per code and UTC day over the last `days` days. " +
      'Gateways write their counts every 5 seconds.',
  })
  async refusalStats(
    @Arg('days', () => Int, { defaultValue: STATISTICS_DAYS_DEFAULT, description: DAYS_DESCRIPTION }) days: number,
    @Ctx() { em }: AdminContext,
  ): Promise<RefusalStatsType> {
    const period = lastUtcDays(parseInput(statisticsDays, days, 'days'));
    return presentRefusalStats(period, await readRefusalCounts(em, period[0]!));
  }
}
