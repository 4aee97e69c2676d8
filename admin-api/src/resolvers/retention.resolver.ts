// When a form's retention will next delete something. Asked per form on request (the settings page
// shows it).
import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { nextRetentionDeletion } from '../queries/retention/next-retention-deletion.js';
import type { AdminContext } from '../context.js';
import { FormType } from '../types/form.type.js';

@Authorized()
@Resolver(() => FormType)
export class FormRetentionResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'ISO 8601: when the oldest submission (spam included) expires under retentionDays, not before now (the ' +
      'retention run after this moment deletes it, at most an hour later); null without a retention or submissions.',
  })
  async retentionNextDeletionAt(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<string | null> {
    const due = await nextRetentionDeletion(em, form.id, form.retentionDays);
    return due === null ? null : due.toISOString();
  }
}
