// Every document the command line sends is valid against the admin API's printed schema
// (docs/schema.graphql, kept current by the admin API's own test). Code generation checks the
// `.graphql` files at build; this also catches generated documents left stale by a later schema
// change: a renamed field or argument fails here, not in a user's terminal.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { buildSchema, parse, validate } from 'graphql';
import * as generated from '../gql/graphql.js';
import { CLI_ROOT } from '../test/cli-harness.js';

const documents = Object.entries(generated).filter(
  ([name]) => name.endsWith('Document') && name !== 'TypedDocumentString',
);

describe('the GraphQL documents of the command line', () => {
  it('are generated from the .graphql files', () => {
    expect(documents.map(([name]) => name)).toEqual(expect.arrayContaining(['MeDocument', 'UpdateFormDocument']));
  });

  it.each(documents)('%s is valid against docs/schema.graphql', async (_name, document) => {
    const schema = buildSchema(await readFile(path.join(CLI_ROOT, '../docs/schema.graphql'), 'utf8'));
    expect(validate(schema, parse(String(document))).map((error) => error.message)).toEqual([]);
  });
});
