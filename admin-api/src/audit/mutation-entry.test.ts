// describeMutation on mutations this code has never seen (shaped like an export and an erasure):
// the object and the details come from the schema's types alone, and no String value is kept,
// whatever its name, in arguments, input objects, lists or results.
import { buildSchema, type GraphQLField } from 'graphql';
import { describeMutation } from './mutation-entry.js';

const schema = buildSchema(`
  enum ExportFormat { CSV JSON }
  type SubmissionExport { id: ID! format: ExportFormat! rowCount: Int! downloadUrl: String! }
  type Erasure { erasedCount: Int! submissionIds: [ID!]! matchedValue: String }
  input ErasureInput { formId: ID field: String! value: String! dryRun: Boolean formats: [ExportFormat!] notes: [String!] }
  type Query { ok: Boolean }
  type Mutation {
    createSubmissionExport(formId: ID!, format: ExportFormat!, password: String): SubmissionExport!
    eraseSubmissions(input: ErasureInput!): Erasure!
  }
`);

// Every id of the API is a UUID.
const [F1, F2, F3, X1, S1, S2] = ['f1', 'f2', 'f3', 'e1', '51', '52'].map(
  (tail) => `00000000-0000-4000-8000-0000000000${tail}`,
) as [string, string, string, string, string, string];

function field(name: string): GraphQLField<unknown, unknown> {
  return schema.getMutationType()!.getFields()[name]!;
}

describe('describeMutation', () => {
  it('takes a create mutation’s object from its result, and keeps ids, enums and counts only', () => {
    const described = describeMutation(
      field('createSubmissionExport'),
      { formId: F1, format: 'CSV', password: 'zip-s3cret' },
      { id: X1, format: 'CSV', rowCount: 12, downloadUrl: 'https://files.example/x?sig=s3cret' },
    );
    expect(described).toEqual({
      objectType: 'SubmissionExport',
      objectId: X1,
      details: { formId: F1, format: 'CSV', 'result.format': 'CSV', 'result.rowCount': 12 },
    });
  });

  it('keeps an erasure’s count and ids but neither the field nor the value it matched', () => {
    const described = describeMutation(
      field('eraseSubmissions'),
      {
        input: {
          formId: F2,
          field: 'email',
          value: 'person@example.com',
          dryRun: false,
          formats: ['JSON'],
          notes: ['person@example.com'],
        },
      },
      { erasedCount: 2, submissionIds: [S1, S2], matchedValue: 'person@example.com' },
    );
    expect(described).toEqual({
      objectType: null,
      objectId: null,
      details: {
        'input.formId': F2,
        'input.dryRun': false,
        'input.formats': ['JSON'],
        'result.erasedCount': 2,
        'result.submissionIds': [S1, S2],
      },
    });
    expect(JSON.stringify(described)).not.toContain('person@example.com');
  });

  it('refers a failed create (no result) to the object of its ID argument', () => {
    expect(describeMutation(field('createSubmissionExport'), { formId: F3, format: 'JSON' }, undefined)).toEqual({
      objectType: 'Form',
      objectId: F3,
      details: { format: 'JSON' },
    });
  });

  it('keeps no ID that is not well-formed: before the resolver refuses it, it is free text', () => {
    const personal = 'jane.doe@example.com +49 170 1234567';
    const described = describeMutation(field('createSubmissionExport'), { formId: personal, format: 'CSV' }, undefined);
    expect(described).toEqual({ objectType: 'Form', objectId: null, details: { format: 'CSV' } });
    const erasure = describeMutation(
      field('eraseSubmissions'),
      { input: { formId: personal, field: 'email', value: personal, formats: ['CSV'] } },
      undefined,
    );
    expect(erasure).toEqual({ objectType: null, objectId: null, details: { 'input.formats': ['CSV'] } });
  });
});
