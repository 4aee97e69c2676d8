import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('Form', { description: 'A form of a site, addressed by its public code in /api/v1/send/:code.' })
export class FormType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  siteId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  code!: string;

  @Field(() => Boolean)
  enabled!: boolean;

  @Field(() => [String], { description: 'MIME types this form accepts (the 12 defaults unless narrowed).' })
  allowedMimeTypes!: string[];

  @Field(() => Boolean, { description: 'True when allowedMimeTypes is the default list.' })
  usesDefaultMimeTypes!: boolean;

  @Field(() => Int, { description: 'Bytes per file (MAX_FILE_SIZE unless lowered).' })
  maxFileSize!: number;

  @Field(() => [String], { description: 'Addresses e-mailed about every new submission (none: empty).' })
  notifyEmails!: string[];

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  updatedAt!: string;
}
