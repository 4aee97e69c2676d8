import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('ErasureCandidate', {
  description:
    'A submission holding the value searched for. Only where it is and which fields hold the value: ' +
    'no other submitted value is shown.',
})
export class ErasureCandidateType {
  @Field(() => ID, { description: 'The submission.' })
  id!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => Boolean, { description: 'Whether the submission is in the Spam view.' })
  spam!: boolean;

  @Field(() => ID)
  siteId!: string;

  @Field(() => String)
  siteName!: string;

  @Field(() => Boolean, { description: 'The site was deleted (its submissions are kept).' })
  siteDeleted!: boolean;

  @Field(() => ID)
  formId!: string;

  @Field(() => String)
  formName!: string;

  @Field(() => Boolean, { description: 'The form was deleted (its submissions are kept).' })
  formDeleted!: boolean;

  @Field(() => [String], { description: 'Top-level fields whose value holds the value (at any depth).' })
  matchingFields!: string[];
}

@ObjectType('ErasureResult', { description: 'What eraseSubmissions removed.' })
export class ErasureResultType {
  @Field(() => [ID], { description: 'Submissions erased with their files, deliveries and delivery attempts.' })
  erasedIds!: string[];

  @Field(() => [ID], { description: 'Ids with no submission (already erased or deleted): not an error.' })
  notFoundIds!: string[];

  @Field(() => Int, { description: 'Stored files erased (rows and their bytes in storage).' })
  fileCount!: number;

  @Field(() => Int, { description: 'Deliveries removed (webhook and e-mail, pending or done), with their attempts.' })
  deliveryCount!: number;
}
