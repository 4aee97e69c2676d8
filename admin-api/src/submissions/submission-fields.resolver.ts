// `Submission.receiptCheck`, apart from the rest of a submission: it reads the form and verifies a
// signature, so it runs only when a client asks for it (the console's submission page does).
import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { checkStoredReceipt } from './check-stored-receipt.js';
import { ReceiptCheckType, SubmissionType } from './submission.type.js';

@Authorized()
@Resolver(() => SubmissionType)
export class SubmissionFieldsResolver {
  @FieldResolver(() => ReceiptCheckType, {
    nullable: true,
    description:
      'The receipt checked now against the published keys and the stored submission; null when it has no receipt.',
  })
  async receiptCheck(
    @Root() submission: SubmissionType,
    @Ctx() { em, deps }: AdminContext,
  ): Promise<ReceiptCheckType | null> {
    const { submission: stored, files } = submission.source;
    return checkStoredReceipt(em, await deps.services.signingKeys(), stored, files);
  }
}
