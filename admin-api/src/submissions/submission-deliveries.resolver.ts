// `Submission.deliveries`: what became of a submission. A field of a submission, so whoever may
// read the submission (`site:read`) sees it; replaying one (`redeliver`) still takes `site:manage`.
import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { submissionDeliveries } from './submission-deliveries.js';
import { SubmissionDeliveryType } from './submission-delivery.type.js';
import { SubmissionType } from './submission.type.js';

@Authorized()
@Resolver(() => SubmissionType)
export class SubmissionDeliveriesResolver {
  @FieldResolver(() => [SubmissionDeliveryType], {
    description:
      'Its webhook and notification e-mail deliveries, oldest first, with their status; empty for spam (never delivered).',
  })
  deliveries(@Root() submission: SubmissionType, @Ctx() { em }: AdminContext): Promise<SubmissionDeliveryType[]> {
    return submissionDeliveries(em, submission.id);
  }
}
