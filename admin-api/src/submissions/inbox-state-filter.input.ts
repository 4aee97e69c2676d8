import { SUBMISSION_STATUSES, type SubmissionStatus } from '@intake/shared/entities';
import { ID, InputType } from 'type-graphql';
import { z } from 'zod';
import { id } from '../validation/fields.js';
import { InputField } from '../validation/input-type.js';
import { SubmissionStatusEnum } from './inbox-state.type.js';

@InputType('SubmissionStateFilterInput', {
  description: "Narrows a form's submissions by their inbox state; every part optional, all parts must hold.",
})
export class SubmissionStateFilterInput {
  @InputField(() => [SubmissionStatusEnum], z.array(z.enum(SUBMISSION_STATUSES)).nullable(), {
    nullable: true,
    description: 'Only these statuses; null, absent or empty: every status but archived (the default view).',
  })
  status?: SubmissionStatus[] | null;

  @InputField(() => Boolean, z.boolean().nullable(), {
    nullable: true,
    description: 'true: only those assigned to the caller.',
  })
  mine?: boolean | null;

  @InputField(() => ID, id.nullable(), {
    nullable: true,
    description: 'Only those assigned to this member.',
  })
  assigneeId?: string | null;

  @InputField(() => Boolean, z.boolean().nullable(), {
    nullable: true,
    description: 'true: only those the caller has not read.',
  })
  unread?: boolean | null;
}
