import { Field, ObjectType, registerEnumType } from 'type-graphql';

export enum SubmissionExportFormatEnum {
  CSV = 'CSV',
  JSON = 'JSON',
  NDJSON = 'NDJSON',
}

registerEnumType(SubmissionExportFormatEnum, {
  name: 'SubmissionExportFormat',
  description: 'The file format of an export.',
  valuesConfig: {
    CSV: {
      description:
        'RFC 4180, UTF-8 with a byte order mark, one column per field, text as sent, formula cells neutralised.',
    },
    JSON: { description: 'One array of the stored values.' },
    NDJSON: { description: 'One object per line, with the stored values.' },
  },
});

@ObjectType('SubmissionExport', { description: 'A signed link that downloads an export of submissions.' })
export class SubmissionExportType {
  @Field(() => String, {
    description: 'Absolute URL answering the export as an attachment for a short time, without other credentials.',
  })
  url!: string;

  @Field(() => String, { description: 'ISO 8601; the download must start before then.' })
  expiresAt!: string;
}
