import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('FileType', { description: 'One of the file types a form may accept.' })
export class FileTypeType {
  @Field(() => String)
  mimeType!: string;

  @Field(() => String, { description: 'A name for people, e.g. "PDF document".' })
  label!: string;

  @Field(() => [String], { description: 'The extensions that name this type, without the dot.' })
  extensions!: string[];
}

@ObjectType('Limits', { description: 'The limits every form lives within (from the configuration).' })
export class LimitsType {
  @Field(() => Int, { description: 'MAX_FILE_SIZE: the largest maxFileSize a form may have, in bytes.' })
  maxFileSize!: number;

  @Field(() => Int, { description: 'MAX_FILES: files per submission.' })
  maxFiles!: number;

  @Field(() => [FileTypeType], { description: 'The 12 types a form may allow, in their default order.' })
  fileTypes!: FileTypeType[];
}
